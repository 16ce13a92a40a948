package state

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/statepub"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// NewRepoStateCmd is `roster repo state`: the resolved kind 30618 state
// and, in a checkout, how the checkout differs from it, both ways.
func NewRepoStateCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdState(a, nil) }

// StateOptions are `roster repo state` as its flags gave it.
type StateOptions struct {
	Factory *cmdutil.Factory
	// Format is --format: "text" (the default) or "github".
	Format       string
	NoGitServers bool
}

// NewCmdState builds repo state (and its publish subcommand); runF, when
// given, runs instead of the read with the parsed options (tests).
func NewCmdState(a *cmdutil.Factory, runF func(context.Context, *StateOptions) error) *cobra.Command {
	o := &StateOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Show the repository's resolved Git state and how this checkout differs from it",
		Long: `roster repo state shows the kind 30618 state in effect: the newest state
event from a confirmed maintainer (deleted ones skipped), its HEAD and refs.

In a checkout it compares each branch and tag with the state by ancestry,
in the checkout's own object store (nothing is fetched): a branch ahead of
the published state (publish it: roster repo state publish), behind it
(fast-forward it: git merge --ff-only origin/<branch>), diverged (both tips
shown), only in this checkout, or only in the published state (git fetch).
A state branch this checkout has only as a remote-tracking branch at the
same commit (a plain git clone) is aligned: the remote-tracking branches
that count are those of the nostr:// remote naming the repository and of
every remote whose URL is one of the repository's advertised clone URLs.
Then what 'roster repo state publish' would change in the state, computed
by the code publish runs, marking what it refuses without --force. The
default branch is compared with the state's HEAD, not with the branch
checked out.

Each advertised clone server is listed and compared with the state too
(git_servers: matches, ahead, behind-or-rewound, diverged, differs,
unreachable; docs/ci.md); --no-git-servers skips it.`,
		Example: `  roster repo state
  roster repo state --json
  roster repo state publish --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := render.CheckCIFormat(a, o.Format); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			format, noGitServers := o.Format, o.NoGitServers
			v, err := repo.LoadRepo(a, cmd.Context(), repo.PartialEvidence)
			if err != nil {
				return err
			}
			var cmp *statepub.Comparison
			if v.Checkout != nil {
				if cmp, err = statepub.CompareCheckout(v); err != nil {
					return localRefsErr(err)
				}
			}
			rep := report.StateFromView(v, cmp)
			rep.GitServers = []report.GitServer{}
			if !noGitServers {
				rep.GitServers = repo.GitServers(a, cmd.Context(), v)
			}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, rep)
			}
			if format == render.FormatGitHub {
				renderStateGitHub(a, rep)
				return nil
			}
			var who []string
			if rep.State != nil {
				who = append(who, rep.State.Author)
			}
			renderStateHuman(a.Io.Out, rep, render.PeopleShown(a, cmd.Context(), v.Relays, who...), render.TerminalWidth(a), render.Selectors(a))
			renderStateGitServers(a.Io.Out, rep.GitServers)
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.NoGitServers, "no-git-servers", false, "do not list the advertised Git servers or compare them with the state")
	render.AddCIFormatFlag(cmd, &o.Format)
	cmd.AddCommand(NewCmdPublish(a, nil))
	return cmdutil.AddFlags(cmd, &a.Opts, cmdutil.RepoCommandFlags)
}

// localRefsErr is the refusal when the checkout's refs cannot be read
// completely (exit 3), naming the fix.
func localRefsErr(err error) error {
	return &cmdutil.ExitError{Code: cmdutil.ExitRefused, Kind: statepub.CodeLocalRefs,
		Err:      fmt.Errorf("cannot compare this checkout with the repository state: %w", err),
		Commands: []suggest.Command{suggest.Git("fsck").Because("what is damaged in this checkout")}}
}

// renderStateHuman names the state's author by pt and wraps rows to width
// between words (0: never), so no ref name, hash or path is broken.
func renderStateHuman(w io.Writer, rep report.StateReport, pt render.PeopleText, width int, sel suggest.Selectors) {
	if rep.State == nil {
		fmt.Fprintln(w, "state:   none (no confirmed maintainer has published a kind 30618 state)")
	} else {
		s := rep.State
		render.FitLine(w, width, 9, fmt.Sprintf("state:   %s by %s", termtext.Line(s.EventID), pt.Of(s.Author)))
		fmt.Fprintf(w, "HEAD:    %s\n", orDash(termtext.Line(s.Head)))
		for _, k := range sortedKeys(s.Refs) {
			render.FitLine(w, width, 4, fmt.Sprintf("  %s  %s", termtext.Line(k), termtext.Line(s.Refs[k])))
		}
	}
	if !rep.Complete {
		fmt.Fprintln(w, "(incomplete: not every relay answered; a newer state may exist)")
	}
	c := rep.Checkout
	if c == nil {
		fmt.Fprintln(w, "no checkout here: run inside the repository's checkout to compare its refs")
		return
	}
	if rep.State != nil && c.Aligned {
		render.FitLine(w, width, 4, fmt.Sprintf("this checkout (%s) is aligned with the state", c.Dir))
	} else if rep.State != nil {
		render.FitLine(w, width, 4, fmt.Sprintf("this checkout (%s) compared with the published state:", c.Dir))
	}
	for _, l := range refStatusLines(c, sel) {
		render.FitLine(w, width, 4, "  "+l)
	}
	if len(c.Tracked) > 0 {
		parts := make([]string, len(c.Tracked))
		for i, k := range c.Tracked {
			parts[i] = fmt.Sprintf("%s (%s)", termtext.Line(k), termtext.Line(c.TrackedBy[k]))
		}
		render.FitLine(w, width, 4, "aligned through remote-tracking branches: "+strings.Join(parts, ", "))
	}
	renderPublishPreview(w, width, c.Publish)
}

// refStatusLines say each ref that differs in Git's words (ahead, behind,
// diverged, only here, only published), each with the command that deals
// with it, and the default branch when it differs.
func refStatusLines(c *report.CheckoutCompare, sel suggest.Selectors) []string {
	var out []string
	for _, r := range c.Refs {
		name, kind := termtext.Line(strings.TrimPrefix(r.Ref, "refs/heads/")), "branch"
		if strings.HasPrefix(r.Ref, "refs/tags/") {
			name, kind = termtext.Line(strings.TrimPrefix(r.Ref, "refs/tags/")), "tag"
		}
		var l string
		switch r.Status {
		case statepub.RefSame:
			continue
		case statepub.RefAhead:
			l = fmt.Sprintf("%s is %s ahead of the published state", name, commits(r.Ahead))
		case statepub.RefBehind:
			l = fmt.Sprintf("%s is %s behind the published state", name, commits(r.Behind))
		case statepub.RefDiverged:
			l = fmt.Sprintf("%s has diverged from the published state: this checkout at %s (%s of its own), the state at %s (%s of its own)",
				name, termtext.Line(r.Local), commits(r.Ahead), termtext.Line(r.Published), commits(r.Behind))
		case statepub.RefDiffers:
			l = fmt.Sprintf("%s %s differs: this checkout at %s, the state at %s", kind, name, termtext.Line(r.Local), termtext.Line(r.Published))
		case statepub.RefUnknown:
			l = fmt.Sprintf("%s cannot be compared with the published %s: %s", name, termtext.Line(r.Published), termtext.Line(r.Reason))
		case statepub.RefOnlyLocal:
			l = fmt.Sprintf("%s %s is only in this checkout (at %s)", kind, name, termtext.Line(r.Local))
		case statepub.RefOnlyPublished:
			l = fmt.Sprintf("%s %s is only in the published state (at %s)", kind, name, termtext.Line(r.Published))
		}
		if r.Next != nil {
			l += ": " + termtext.Line(sel.Apply(*r.Next).Line())
		}
		out = append(out, l)
	}
	for _, a := range c.Align {
		if a.Action == "set-default-branch" {
			out = append(out, fmt.Sprintf("the published default branch is %s; this checkout's would be %s", termtext.Line(a.To), termtext.Line(orDash(a.From))))
		}
	}
	return out
}

func commits(n int) string {
	if n == 1 {
		return "1 commit"
	}
	return fmt.Sprintf("%d commits", n)
}

// renderPublishPreview is what `roster repo state publish` would do: the
// changes, and those it refuses without --force with the reason (the
// computation publish runs).
func renderPublishPreview(w io.Writer, width int, p report.StatePublishPreview) {
	if len(p.Changes) == 0 {
		return
	}
	fmt.Fprintln(w, "roster repo state publish would:")
	needs := map[string]string{}
	for _, r := range p.Rewrites {
		needs[r.Action+" "+r.Ref] = r.Reason
	}
	for _, c := range p.Changes {
		l := "  " + termtext.Line(preflight.RenderRefActions([]preflight.RefAction{c})[0])
		if why, ok := needs[c.Action+" "+c.Ref]; ok {
			l += " (only with --force: " + termtext.Line(why) + ")"
		}
		render.FitLine(w, width, 4, l)
	}
	if len(p.Rewrites) > 0 {
		fmt.Fprintln(w, "without --force it refuses, publishing nothing")
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// PublishOptions are `roster repo state publish` as its flags gave it.
type PublishOptions struct {
	Factory       *cmdutil.Factory
	Force, DryRun bool
}

// NewCmdPublish is `roster repo state publish`; runF, when given, runs
// instead of the publish with the parsed options (tests).
func NewCmdPublish(a *cmdutil.Factory, runF func(context.Context, *PublishOptions) error) *cobra.Command {
	o := &PublishOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "publish",
		Short: "Publish this checkout's branches and tags as the repository state (kind 30618)",
		Long: `roster repo state publish signs this checkout's branches and tags as a kind
30618 state event in ngit's shape and publishes it to the repository's
relays. Only a confirmed maintainer may. State branches the checkout has
only as remote-tracking branches at the state's commit (of the nostr://
remote, or of a remote whose URL is an advertised clone URL) are kept.

It refuses (exit 3, nothing published): a ref whose new commit does not
descend from the resolved one, and the removal of a resolved ref, unless
--force; a ref whose object no Git server of the repository advertises (it
names the git push that fixes it); a checkout whose refs cannot be read.
When no Git server could be listed it is exit 4. The event is dated after
every state event it replaces, read back from every relay, and the
repository is resolved again: the state in effect must be the one published
(exit 6 otherwise).`,
		Example: `  roster repo state publish --dry-run
  roster repo state publish
  roster repo state publish --force   # replace diverged or removed refs deliberately`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.Opts.Offline {
				return cmdutil.UsageErr("--offline cannot be used to publish state: it needs complete answers from the relays")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runStatePublish(a, cmd.Context(), statepub.Options{Force: o.Force, DryRun: o.DryRun})
		},
	}
	cmd.Flags().BoolVar(&o.Force, "force", false, "publish refs that do not descend from the resolved ones, and remove resolved refs this checkout lacks")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "show what would be published; publish nothing")
	render.AddVerboseFlag(cmd, a, "also list the refs the event carries and what each relay said")
	return cmdutil.AddFlags(cmd, &a.Opts, cmdutil.RepoCommandFlags)
}

func runStatePublish(a *cmdutil.Factory, ctx context.Context, opts statepub.Options) error {
	s, err := a.Signer(ctx)
	if err != nil {
		return err
	}
	q, done, err := repo.WriteQuery(a, ctx, cmdutil.SourceOptions{})
	if err != nil {
		return err
	}
	defer done()
	p := statepub.Pipeline{
		Read:          q,
		Now:           a.Io.Now,
		Signer:        s,
		Relays:        relaypool.Fresh(func() *relaypool.Pool { return a.Pool(cmdutil.AuthLazy) }),
		Availability:  a.CheckAvailability,
		BeforeRecheck: a.Seams.BeforeRecheck,
		AfterPublish:  a.Seams.AfterPublish,
		Journal:       a.Journal(),
		Notice:        func(us []journal.Unfinished) { render.NoticeUnfinished(a, us) },
	}
	o, err := p.Run(ctx, opts)
	if err != nil {
		// What discovery could not do, in the read's words.
		_, err = repo.RepoViewErr(a, nil, err)
		var f *statepub.Failure
		if errors.As(err, &f) {
			return render.WithJournal(statePublishFailure(a, err, opts), f.Journal)
		}
		return statePublishFailure(a, err, opts)
	}
	out := report.StatePublishOf(o, opts)
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	renderStatePublishHuman(a, o, out)
	return nil
}

// renderStatePublishHuman says what publishing changes in the resolved
// state, then one line of evidence and which event was published;
// --verbose adds the refs the event carries and what each relay said.
func renderStatePublishHuman(a *cmdutil.Factory, o *statepub.Outcome, out report.StatePublish) {
	w, width := a.Io.Out, render.TerminalWidth(a)
	repo.PrintTargetFit(w, width, o.View)
	if o.Unchanged {
		render.FitLine(w, width, 2, fmt.Sprintf("your state %s already carries these refs; nothing to publish", termtext.Line(o.View.State.EventID)))
		return
	}
	render.FitLine(w, width, 2, fmt.Sprintf("this checkout's %s become the repository state, signed by you (default branch %s)",
		render.Count(len(out.Event.Refs), "ref", "refs"), termtext.Line(orDash(strings.TrimPrefix(out.Event.Head, "ref: ")))))
	if a.Verbose {
		render.FitLine(w, width, 2, "HEAD:    "+termtext.Line(orDash(out.Event.Head)))
		for _, k := range sortedKeys(out.Event.Refs) {
			render.FitLine(w, width, 4, "  "+termtext.Line(k)+"  "+out.Event.Refs[k])
		}
	}
	if len(out.Changes) == 0 {
		fmt.Fprintln(w, "changes to the resolved state: none (same refs, signed by you)")
	} else {
		fmt.Fprintln(w, "changes to the resolved state:")
		for _, l := range preflight.RenderRefActions(out.Changes) {
			render.FitLine(w, width, 4, "  "+termtext.Line(l))
		}
	}
	if o.Plan != nil && o.Plan.Forced && len(o.Plan.Rewrites) > 0 {
		render.FitLine(w, width, 2, fmt.Sprintf("--force: %d ref(s) replaced that did not descend or were removed", len(o.Plan.Rewrites)))
	}
	ev := render.Evidence{Relays: len(o.View.Relays), State: true, Rechecked: o.Rechecked}
	if o.View.Search != nil {
		ev.Relays = len(o.View.Search.Asked)
	}
	var notes []string
	if o.Plan != nil {
		ev.Servers = len(o.Plan.Availability.Servers)
		notes = o.Plan.Availability.Notes()
	}
	render.FitLine(w, width, 2, ev.Line())
	if na := o.View.Search.NotAnswered(); na != "" {
		render.FitLine(w, width, 2, "not checked: "+termtext.Line(na))
	}
	for _, l := range notes {
		render.FitLine(w, width, 2, "note: "+termtext.Line(l))
	}
	if o.DryRun {
		fmt.Fprintln(w, "preview only (--dry-run): nothing was published")
		return
	}
	render.FitLine(w, width, 2, fmt.Sprintf("%s to %s, read back and resolved", render.Published(a, [][2]string{{"state", out.Event.ID}}), render.Count(len(out.Relays), "relay", "relays")))
	if a.Verbose {
		for _, r := range out.Relays {
			render.FitLine(w, width, 4, fmt.Sprintf("  relay %s: ok=%v read_back=%v %s", r.URL, r.OK, r.ReadBack, termtext.Line(r.Message)))
		}
	}
}

// statePublishFailure maps the pipeline's failures to exit codes.
func statePublishFailure(a *cmdutil.Factory, err error, opts statepub.Options) error {
	var (
		f  *statepub.Failure
		se *statepub.SignerError
	)
	switch {
	case errors.As(err, &se):
		return cmdutil.SignerError(se.Err)
	case !errors.As(err, &f):
		return err
	}
	if f.Code == statepub.CodeInterrupted {
		return stoppedPublish(a, f, opts)
	}
	code := cmdutil.ExitCode(f.Class)
	lines := append(append([]string{}, f.Lines...), indentLines(f.Problems)...)
	details := map[string]any{}
	switch {
	case f.Availability != nil:
		details = gitstate.AvailabilityDetails(*f.Availability)
	case len(f.Rewrites) > 0:
		details["rewrites"], details["force_words"] = f.Rewrites, f.ForceWords
	}
	if f.Code == statepub.CodeUnverified || f.Code == statepub.CodePublishFailed || f.Code == statepub.CodeSuperseded {
		res := report.StatePublishOf(f.Outcome, opts)
		details["published"], details["relays"] = res.Published, res.Relays
		if f.Code != statepub.CodePublishFailed {
			details["problems"] = f.Problems
		}
	}
	if f.Code == statepub.CodeConcurrentChange {
		details["changed"] = f.Changed
	}
	if f.Outcome != nil && f.Outcome.View != nil {
		// The target is named before the refusal as before a preview.
		details["target"] = report.TargetOf(f.Outcome.View)
		if !a.Opts.JSON {
			repo.PrintTarget(a.Io.Err, f.Outcome.View)
		}
	}
	// Each line may carry relay- or announcement-supplied text (clone
	// URLs, event ids): it is escaped alone, so the only line breaks are
	// roster's.
	terminal := termtext.Lines(lines)
	if code == cmdutil.ExitRefused || code == cmdutil.ExitIncomplete || code == cmdutil.ExitUsage {
		// Before the --force words, which stay last: right above --force.
		at := len(lines)
		if f.ForceWords != "" && at > 0 && lines[at-1] == f.ForceWords {
			at--
		}
		lines = slices.Insert(lines, at, "nothing was published")
		terminal = slices.Insert(terminal, at, "nothing was published")
	}
	return &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(strings.Join(lines, "\n")), Details: details, Commands: f.Next,
		Terminal: strings.Join(terminal, "\n")}
}

func indentLines(ls []string) []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, "  "+l)
	}
	return out
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
