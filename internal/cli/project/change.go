// `roster project relate|unrelate`: one call to projects.Change, rendered.

package project

import (
	"context"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
)

// projectChange submits one change on relay and renders the result.
func projectChange(ctx context.Context, a *cmdutil.Factory, s signer.Signer, relay string, c projects.Coordinate, patch projects.Patch, verb string) error {
	_, actor, err := a.SignerAndPubkey(ctx) // s, opened already
	if err != nil {
		return err
	}
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	j := a.Journal()
	if err := noticeUnfinished(a, j, c); err != nil {
		return err
	}
	res, err := projects.Change(ctx, projects.ChangeInput{Relays: pool, Publish: pipeline.PoolPublish(pool), Sign: s.SignEvent,
		Actor: actor, Relay: relay, Coord: c, Patch: patch, Now: func() nostr.Timestamp { return cmdutil.NostrNow(a) }, BeforeSign: a.Seams.ProjectBeforeSign,
		Journal: j, Rerun: a.RerunWords()})
	if err != nil {
		return render.PipelineErr(err)
	}
	projectCachePut(a, res.After)
	after := res.After.Best
	out := report.ProjectChange{Schema: "roster.project.change/v2", Coordinate: c.String(), Relay: relay, Actor: actor, ActorNpub: gitstate.EncodeNpub(actor),
		Add: patch.Add, Remove: patch.Remove, ExpectedRevision: res.Before.Revision, Revision: after.Revision,
		RelatedChannels: cmdutil.OrEmptySlice(after.Document.RelatedChannels), Published: []string{res.EventID}, Retried: res.Retried,
		Authority: report.ProjectAuthority{Basis: res.Authority.Basis, Note: res.Authority.Note}}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	if out.Authority.Note != "" {
		fmt.Fprintf(a.Io.Err, "roster: note: %s\n", termtext.Line(out.Authority.Note))
	}
	fmt.Fprintf(a.Io.Out, "%sd %d channel(s) for %s: revision %d -> %d", verb, len(patch.Add)+len(patch.Remove), termtext.Line(c.String()), res.Before.Revision, after.Revision)
	if out.Retried {
		fmt.Fprint(a.Io.Out, " (retried once after a concurrent change)")
	}
	// The related channels are the relay's projection: one line.
	related := "none"
	if len(out.RelatedChannels) > 0 {
		related = strings.Join(out.RelatedChannels, ", ")
	}
	fmt.Fprintf(a.Io.Out, "\n  related channels: %s\n", termtext.Line(related))
	return nil
}

// ProjectChangeCommands is the change as the roster commands that make it,
// as printed, each with comment.
func ProjectChangeCommands(c projects.Coordinate, patch projects.Patch, relay, comment string) []string {
	var cmds []string
	for _, s := range projects.ChangeSuggestions(c, patch, relay, "") {
		cmds = append(cmds, s.Because(comment).String())
	}
	return cmds
}
