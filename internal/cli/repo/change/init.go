package change

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/announce"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/hooks"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// NewRepoInitCmd is `roster repo init`: announce this checkout (kind 30617).
func NewRepoInitCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdInit(a, nil) }

// InitOptions are `roster repo init` as its flags gave it.
type InitOptions struct {
	Factory                       *cmdutil.Factory
	Identifier, Name, Description string
	Clone, Web                    []string
	SetOrigin, DryRun             bool
}

// NewCmdInit builds repo init; runF, when given, runs instead of the
// announcement with the parsed options (tests).
func NewCmdInit(a *cmdutil.Factory, runF func(context.Context, *InitOptions) error) *cobra.Command {
	o := &InitOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Announce this checkout as a repository on Nostr (kind 30617)",
		Long: `init signs a kind 30617 announcement of the current checkout with your key
and publishes it to the chosen relays (--relay, else ROSTER_RELAYS, else
config.yaml's relays): d (from
--identifier or the directory name), r <root-commit> euc, name, description,
clone, web, relays and alt, in the order ngit writes them. A fresh one-person
repository carries no M/m/o role tags and no maintainers tag: its author is the
implicit sole maintainer.

It first fetches your existing announcement of the same identifier from every
relay (all must answer, else exit 4). If one exists with a different root
commit, fork links or maintainers, init refuses (exit 3): changing an
announcement is 'roster repo edit'. An announcement that agrees on those is
refreshed, keeping every tag init does not write.

After publishing it reads the event back from every relay and reports each;
exit 6 when any relay does not return it. It then sets git config nostr.repo
to the repository's naddr and, with --set-origin, points origin at its
nostr:// URL.

The signed announcement is kept in the journal of unfinished writes
(roster pending) from before the first relay is sent it until every relay
returns it: an interrupted init is finished with roster pending resume.
With --dry-run init reads your existing announcement as above and prints
the announcement it would sign (its tags and the relays), signing and
publishing nothing and leaving the checkout's configuration alone.`,
		Example: `  roster repo init --relay wss://relay.example --description "What it does"
  roster repo init --identifier my-repo --name "My Project" --clone https://git.example/my-repo.git --set-origin
  ROSTER_RELAYS=wss://a.example,wss://b.example roster repo init --json
  roster repo init --relay wss://relay.example --dry-run --json   # roster.repo-init-preview/v1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.Opts.Offline {
				return cmdutil.UsageErr("repo init publishes to relays; it cannot run with --offline")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runRepoInit(cmd.Context(), a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Identifier, "identifier", "", "repository identifier (d tag); default: the directory name")
	f.StringVar(&o.Name, "name", "", "human-readable name; default: the directory name")
	f.StringVar(&o.Description, "description", "", "one-line description")
	cmdutil.StringArrayVar(f, &o.Clone, "clone", "clone URL (repeatable); default: origin's URL when it is not nostr://")
	cmdutil.StringArrayVar(f, &o.Web, "web", "web page URL (repeatable)")
	f.BoolVar(&o.SetOrigin, "set-origin", false, "also point the origin remote at the repository's nostr:// URL")
	f.BoolVar(&o.DryRun, "dry-run", false, "show the announcement (tags, relays) that would be published; sign and publish nothing")
	return cmdutil.AddFlags(cmd, &a.Opts, cmdutil.RepoCommandFlags)
}

func runRepoInit(ctx context.Context, a *cmdutil.Factory, o *InitOptions) error {
	co, err := gitstate.Open(a.Io.Dir)
	if errors.Is(err, gitstate.ErrNotARepository) {
		// init announces the checkout it runs in and takes no --repo.
		// The line is shell (cd, then init), so it is rendered here with
		// the user's selectors.
		initLine := render.Selectors(a).Apply(suggest.Roster("repo", "init")).Line()
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "not-a-checkout",
			Err: errors.New("not inside a Git checkout: repo init announces the checkout it runs in, so run it in your clone"),
			Commands: []suggest.Command{suggest.Shell("cd <your clone> && " + initLine),
				suggest.Git("init").Because("or make this directory a repository, commit, then run roster repo init")}}
	}
	if err != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "not-a-checkout", Err: err}
	}
	relays := relaypool.NormalizeRelays(a.DefaultRelays())
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	p := announce.Pipeline{Checkout: co, Signer: a.Signer, Relays: relays, Pool: pool, Now: a.Io.Now,
		Journal: a.Journal(), Notice: func(us []journal.Unfinished) { render.NoticeUnfinished(a, us) }}
	res, err := p.Run(ctx, announce.Request{Identifier: o.Identifier, Name: o.Name, Description: o.Description,
		Clone: o.Clone, Web: o.Web, SetOrigin: o.SetOrigin, DryRun: o.DryRun})
	var (
		ae *announce.Error
		se *announce.SignerError
	)
	switch {
	case errors.As(err, &se):
		var ee *cmdutil.ExitError
		if errors.As(se.Err, &ee) {
			return ee // a.signer's own exit error (no signer, wrong passphrase)
		}
		return cmdutil.SignerError(se.Err)
	case errors.As(err, &ae):
		return announceErr(ae)
	case err != nil && res == nil:
		return err
	}
	if res.DryRun {
		return reportInitPreview(a, res, relays, o.SetOrigin)
	}
	s, err2 := a.Signer(ctx) // opened already: the announcement is signed
	if err2 != nil {
		return err2
	}
	out := report.RepoInit{Schema: report.RepoInitSchema, Backend: s.Backend(), Published: []string{}, Replaces: res.Replaces,
		Event: res.Event, Relays: res.Delivery.Relays, Verified: res.Verified,
		GitConfig: report.RepoInitGitConfig{NostrRepo: res.NostrRepo, Origin: res.Origin},
		Coordinate: report.RepoInitCoordinate{Kind: res.Coordinate.Kind, Pubkey: res.Coordinate.Pubkey, Npub: graph.Npub(res.Coordinate.Pubkey),
			Identifier: res.Coordinate.Identifier, Naddr: res.Naddr}}
	out.Unchanged = res.Unchanged
	if res.Delivery.Accepted > 0 || res.Unchanged {
		if !res.Unchanged {
			out.Published = []string{res.Event.ID}
		}
		out.Share = report.ShareOf(res.Coordinate, report.HintRelay(res.Delivery.Relays, relays)).WithClone(res.Coordinate, cloneTagURLs(res.Event))
	}
	if err != nil {
		return err // the checkout's configuration could not be written
	}
	return reportRepoInit(a, out, res.NotReadBack(), relays, res.Journal)
}

// announceErr is the exit error of what stopped an announcement.
func announceErr(e *announce.Error) *cmdutil.ExitError {
	ee := &cmdutil.ExitError{Code: cmdutil.ExitCode(e.Class), Kind: e.Code, Err: errors.New(e.Msg), Details: e.Details, Commands: e.Next}
	if e.Code == announce.KindIncomplete {
		ee.Err = fmt.Errorf("%s:\n  %s", e.Msg, strings.Join(unanswered(e.Fetch), "\n  "))
		// Relay reasons stay on their own line on a terminal.
		ee.Terminal = fmt.Sprintf("%s:\n  %s", e.Msg, strings.Join(termtext.Lines(unanswered(e.Fetch)), "\n  "))
	}
	return ee
}

// reportRepoInit prints the result. A publish some relay did not return is
// exit 6; with --json its error rides along inside the result.
// A kept journal entry (write) is named in the error with the commands
// that resume or discard it.
func reportRepoInit(a *cmdutil.Factory, res report.RepoInit, notReadBack, relays []string, write string) error {
	if !res.Verified {
		ee := &cmdutil.ExitError{Code: cmdutil.ExitUnverified, Kind: "unverified",
			Err:     fmt.Errorf("published %s, but %s did not return it on read-back", res.Event.ID, strings.Join(notReadBack, ", ")),
			Details: map[string]any{"published": res.Published, "relays": res.Relays},
			Commands: []suggest.Command{suggest.Roster("repo", "init").With(relayWords(notReadBack)...),
				suggest.Roster("repo").With(relayWords(relays)...)}}
		if write != "" {
			// The signed announcement is kept: resuming sends the same
			// bytes, where rerunning init would sign a second one.
			ee.Commands = []suggest.Command{suggest.Roster("repo").With(relayWords(relays)...)}
			_ = render.WithJournal(ee, write)
			ee.Commands = append(ee.Commands[1:], ee.Commands[0])
		}
		if a.Opts.JSON {
			// The result is the useful part; the error rides along in it.
			res.Error = &report.ErrorBody{Code: ee.Kind, Message: ee.Err.Error(), Details: ee.Details, Commands: render.Render(a, ee.Commands)}
			if err := cmdutil.WriteJSON(a, res); err != nil {
				return err
			}
			ee.Printed = true
			return ee
		}
		renderRepoInit(a, res)
		return ee
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, res)
	}
	renderRepoInit(a, res)
	hooks.HooksTip(a)
	return nil
}

// unanswered lists the relays that did not answer, one relayFailure each.
func unanswered(res *relaypool.FetchResult) []string {
	var out []string
	for _, r := range res.Relays {
		if r.Status != relaypool.StatusOK {
			out = append(out, cmdutil.RelayFailure(r.URL, r.Status, r.Reason))
		}
	}
	return out
}

// relayWords are `--relay <url>` for each relay.
func relayWords(relays []string) []string {
	out := make([]string, 0, 2*len(relays))
	for _, r := range relays {
		out = append(out, "--relay", r)
	}
	return out
}

func renderRepoInit(a *cmdutil.Factory, res report.RepoInit) {
	// Rows wrap at the terminal's width; a command to paste stays whole.
	w, width := a.Io.Out, render.TerminalWidth(a)
	verb := "Announced"
	if res.Replaces != nil {
		verb = "Re-announced"
	}
	if res.Unchanged {
		render.FitLine(w, width, 2, fmt.Sprintf("nothing to change: your announcement of %s (event %s) already says this; nothing was published", termtext.Line(res.Coordinate.Identifier), res.Event.ID))
	} else {
		render.FitLine(w, width, 2, fmt.Sprintf("%s %s as %s (event %s, signed via %s)", verb, termtext.Line(res.Coordinate.Identifier), res.Coordinate.Npub, res.Event.ID, res.Backend))
	}
	for _, r := range res.Relays {
		status := "accepted, read back"
		switch {
		case !r.OK:
			status = "refused: " + termtext.Line(r.Message)
		case !r.ReadBack:
			status = "accepted, NOT returned on read-back"
		}
		render.FitLine(w, width, 4, fmt.Sprintf("  %-40s %s", termtext.Line(r.URL), status))
	}
	if res.GitConfig.NostrRepo != nil {
		render.FitLine(w, width, 2, "git config nostr.repo = "+termtext.Line(*res.GitConfig.NostrRepo))
	}
	if res.GitConfig.Origin != nil {
		render.FitLine(w, width, 2, "git remote origin     = "+termtext.Line(*res.GitConfig.Origin))
	}
	if res.Share != nil {
		render.FitLine(w, width, 2, "share this repository: "+termtext.Line(res.Share.URL))
		if res.Share.CloneURL != "" {
			fmt.Fprintf(w, "  clone it with: git clone %s\n", termtext.Line(suggest.Quote(res.Share.CloneURL)))
		}
		render.FitLine(w, width, 4, "  someone you invite (roster repo edit --add-maintainer <npub>) pastes:")
		for _, l := range res.Share.Paste {
			fmt.Fprintf(w, "    %s\n", termtext.Line(l))
		}
	}
}

// cloneTagURLs are an announcement's clone URLs, in order.
func cloneTagURLs(e *nostr.Event) []string {
	var out []string
	if e == nil {
		return nil
	}
	for _, t := range e.Tags {
		if len(t) >= 2 && t[0] == "clone" {
			out = append(out, t[1:]...)
		}
	}
	return out
}
