package change

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/announce"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
)

// reportInitPreview prints what init would publish.
func reportInitPreview(a *cmdutil.Factory, res *announce.Result, relays []string, setOrigin bool) error {
	out := report.RepoInitPreview{Schema: report.RepoInitPreviewSchema, DryRun: true, Event: res.Event, Relays: append([]string{}, relays...),
		Replaces: res.Replaces, Unchanged: res.Unchanged,
		Coordinate: report.RepoInitCoordinate{Kind: res.Coordinate.Kind, Pubkey: res.Coordinate.Pubkey, Npub: graph.Npub(res.Coordinate.Pubkey),
			Identifier: res.Coordinate.Identifier, Naddr: res.Naddr}}
	naddr := res.Naddr
	out.GitConfig.NostrRepo = &naddr
	if setOrigin {
		u := gitstate.NostrURL(res.Coordinate, relays)
		out.GitConfig.Origin = &u
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	w := a.Io.Out
	switch {
	case res.Unchanged:
		fmt.Fprintf(w, "nothing to change: your announcement of %s (event %s) already says this; init would publish nothing\n",
			termtext.Line(res.Coordinate.Identifier), res.Event.ID)
		return nil
	case res.Replaces != nil:
		fmt.Fprintf(w, "would re-announce %s as %s, replacing event %s (dry run: nothing signed or published)\n",
			termtext.Line(res.Coordinate.Identifier), out.Coordinate.Npub, *res.Replaces)
	default:
		fmt.Fprintf(w, "would announce %s as %s (dry run: nothing signed or published)\n", termtext.Line(res.Coordinate.Identifier), out.Coordinate.Npub)
	}
	fmt.Fprintf(w, "  kind %d, created_at %d\n", res.Event.Kind, res.Event.CreatedAt)
	for _, t := range res.Event.Tags {
		fmt.Fprintf(w, "  tag  %s\n", termtext.Line(strings.Join(t, " ")))
	}
	fmt.Fprintf(w, "  to   %s\n", termtext.Line(strings.Join(relays, ", ")))
	fmt.Fprintf(w, "then git config nostr.repo = %s\n", termtext.Line(naddr))
	if out.GitConfig.Origin != nil {
		fmt.Fprintf(w, "then git remote origin     = %s\n", termtext.Line(*out.GitConfig.Origin))
	}
	return nil
}
