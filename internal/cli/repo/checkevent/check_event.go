package checkevent

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/roster-cli/roster/eventcheck"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	clirepo "github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// NewRepoCheckEventCmd is `roster repo check-event`: for CI and bots,
// whether a status, label, subject or cover note's author was authorized
// at its created_at under its repository's resolution (exit 0 yes, 5 no, 4
// evidence incomplete).
func NewRepoCheckEventCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdCheckEvent(a, nil) }

// CheckEventOptions are `roster repo check-event` as its flags and
// arguments gave it, --stdin's lines not yet read.
type CheckEventOptions struct {
	Factory *cmdutil.Factory
	Args    []string // the references given as arguments
	Stdin   bool     // --stdin: also one reference per line from stdin
	Format  string   // --format: text or github
}

// NewCmdCheckEvent builds repo check-event; runF, when given, runs instead
// of the check with the parsed options (tests).
func NewCmdCheckEvent(a *cmdutil.Factory, runF func(context.Context, *CheckEventOptions) error) *cobra.Command {
	o := &CheckEventOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "check-event <nevent|note1|hex id>...",
		Short: "Was an event's author authorized for it at its time? (exit 0 yes, 5 no, 4 incomplete)",
		Long: `roster repo check-event fetches one status (kinds 1630-1633), label or subject
(kind 1985 in the #t or #subject namespace) or cover note (kind 1624), finds
its repository through its a tag (30617:<pubkey>:<identifier>, or its root
target's), resolves that repository with every relay answering, and says
whether the event's author was authorized for it at its created_at:

  a confirmed maintainer or moderator whose effective role covered that
  time (the current role from its effective start, or a closed interval
  of the resolved history), or the author of the issue, patch or pull
  request it applies to. Invitees and outsiders never are.

A kind 30618 repository state event is checked too, against the repository
--repo names (it carries only an identifier): it counts only from a
currently confirmed maintainer, whatever its created_at (never a moderator).

ngit checks only the current roster; this checks the history. --repo checks
the event against that repository instead of the one it names (it must name
one with the same identifier). A CI job acting for one repository should
pass --repo: an event's a tag is chosen by its author, who can name a
same-identifier coordinate of their own. A nevent's relay hints are asked
too, unless --relay is given.

  0  authorized
  5  not authorized (the reason says why)
  4  the event, its repository or its target could not be found, or a
     relay did not answer

Several references (arguments, or one per line with --stdin) are read in
one round per relay and each gets its verdict (with --json one
roster.check-event/v1 object per line); the exit code is the worst
verdict's (1, then 5, 4, 2, 0). Times are each event's own created_at,
which its author asserts (time_source in JSON).`,
		Example: `  roster repo check-event nevent1...
  roster repo check-event note1... --relay wss://relay.example --json
  roster repo check-event <64-hex id> --repo nostr://npub1.../my-repo --jq .authorized
  roster repo check-event <state event id> --repo nostr://npub1.../my-repo   # kind 30618
  git log --format=%b | grep -o 'nevent1[a-z0-9]*' | roster repo check-event --stdin --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.Opts.Offline {
				return offlineRefusal(args, o.Stdin, len(a.DefaultRelays()) == 0)
			}
			if err := render.CheckCIFormat(a, o.Format); err != nil {
				return err
			}
			o.Args = args
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			stdin, format := o.Stdin, o.Format
			texts := args
			if stdin {
				lines, err := readRefLines(a.Io.In)
				if err != nil {
					return err
				}
				texts = append(append([]string{}, args...), lines...)
			}
			switch {
			case len(texts) == 0:
				return cmdutil.UsageErr("no event to check: give a nevent, note1 or 64-hex id, or --stdin with one per line")
			case len(texts) > eventcheck.MaxRefs:
				return cmdutil.UsageErr("%d events to check: at most %d per run", len(texts), eventcheck.MaxRefs)
			}
			refs := make([]eventcheck.Ref, 0, len(texts))
			for _, t := range texts {
				ref, err := eventcheck.ParseRef(t)
				if err != nil {
					return cmdutil.UsageErr("%s", err.Error())
				}
				refs = append(refs, ref)
			}
			results, err := checkEvents(a, cmd.Context(), refs)
			if err != nil {
				return err
			}
			if len(results) == 1 && !stdin {
				return reportOneCheck(a, cmd.Context(), results[0], format)
			}
			return reportChecks(a, cmd.Context(), results, format)
		},
	}
	cmd.Flags().BoolVar(&o.Stdin, "stdin", false, "also read references from stdin, one per line (blank lines and # comments skipped)")
	render.AddCIFormatFlag(cmd, &o.Format)
	return cmdutil.AddFlags(cmd, &a.Opts, cmdutil.RepoCommandFlags)
}

// offlineRefusal is --offline's refusal: a verdict CI acts on needs every
// relay's answer, and the cache has neither the event nor proof that what
// it has is the latest. Without a relay configured the command asking
// the relays names one to ask: the references' hints may not be enough.
func offlineRefusal(args []string, stdin, noRelays bool) error {
	again := append([]string{"repo", "check-event"}, args...)
	if stdin {
		again = append(again, "--stdin")
	}
	if noRelays {
		again = append(again, "--relay", "wss://<relay>")
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage",
		Err: errors.New("check-event gives a verdict CI acts on, which needs every relay's answer: the local cache keeps no status, label, subject or cover note to check, " +
			"and cannot prove that the repository's announcements and deletions are still the latest (a removal or deletion on any relay changes the verdict); drop --offline"),
		Details:  map[string]any{"flags": []string{"--offline"}},
		Commands: []suggest.Command{suggest.Roster(again...).Because("the same, asking the relays")}}
}

// readRefLines reads --stdin's references: one per line, blank lines and
// lines starting with # skipped, at most eventcheck.MaxRefs of them.
func readRefLines(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(out) == eventcheck.MaxRefs {
			return nil, cmdutil.UsageErr("more than %d events on stdin: at most %d per run", eventcheck.MaxRefs, eventcheck.MaxRefs)
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return nil, cmdutil.UsageErr("reading references from stdin: %v", err)
	}
	return out, nil
}

// reportOneCheck is the single-reference output: the document (or the
// error) as before, exit 0, 5 or the error's code.
func reportOneCheck(a *cmdutil.Factory, ctx context.Context, r eventcheck.Result, format string) error {
	if r.Err != nil {
		return checkEventErr(a, r.Ref, r.Err)
	}
	doc := report.CheckEventOf(r.Verdict)
	switch {
	case a.Opts.JSON:
		if err := cmdutil.WriteJSON(a, doc); err != nil {
			return err
		}
	case format == render.FormatGitHub:
		ghCheckEvent(a.Io.Out, doc)
		render.AppendStepSummary(a, checkEventsMarkdown([]*report.CheckEvent{doc}, nil))
	default:
		renderCheckEvents(a, ctx, []*report.CheckEvent{doc})
		fmt.Fprintln(a.Io.Out, timeSourceNote)
	}
	if !doc.Authorized {
		return &cmdutil.ExitError{Code: cmdutil.ExitUnhealthy, Kind: "not-authorized", Printed: true,
			Err: fmt.Errorf("event %s: its author was not authorized for it at its created_at (%s)", r.Verdict.Event.ID, *doc.Reason)}
	}
	return nil
}

// timeSourceNote is said once in the human output.
const timeSourceNote = "times are each event's own created_at, which its author asserts"

// exitRank orders exit codes from best to worst for several verdicts.
var exitRank = map[int]int{cmdutil.ExitOK: 0, cmdutil.ExitUsage: 1, cmdutil.ExitIncomplete: 2, cmdutil.ExitUnhealthy: 3, cmdutil.ExitFailure: 4}

// reportChecks prints one verdict per reference (JSON lines with --json)
// and exits with the worst one's code.
func reportChecks(a *cmdutil.Factory, ctx context.Context, results []eventcheck.Result, format string) error {
	worst := cmdutil.ExitOK
	var docs []*report.CheckEvent
	var failed []*cmdutil.ExitError
	for _, r := range results {
		code := cmdutil.ExitOK
		if r.Err != nil {
			ee := cmdutil.AsExitError(checkEventErr(a, r.Ref, r.Err))
			code = ee.Code
			failed = append(failed, ee)
			switch {
			case a.Opts.JSON:
				if err := cmdutil.EncodeJSONTo(a.ErrorOut(), report.ErrorDocument{Error: report.ErrorBody{Code: ee.Kind, Message: ee.Err.Error(), Details: cmdutil.OrEmptyMap(ee.Details), Commands: cmdutil.OrEmptySlice(render.Render(a, ee.Commands))}}, false); err != nil {
					return err
				}
			case format == render.FormatGitHub:
				render.GhCommand(a.Io.Out, "warning", "roster: check-event "+r.Ref.ID, ee.Err.Error())
			default:
				render.PrintHumanError(a, ee, render.Render(a, ee.Commands))
			}
		} else {
			doc := report.CheckEventOf(r.Verdict)
			docs = append(docs, doc)
			if !doc.Authorized {
				code = cmdutil.ExitUnhealthy
			}
			switch {
			case a.Opts.JSON:
				if err := a.EmitJSON(doc, false); err != nil {
					return err
				}
			case format == render.FormatGitHub:
				ghCheckEvent(a.Io.Out, doc)
			}
		}
		if exitRank[code] > exitRank[worst] {
			worst = code
		}
	}
	switch {
	case a.Opts.JSON:
	case format == render.FormatGitHub:
		render.AppendStepSummary(a, checkEventsMarkdown(docs, failed))
	default:
		renderCheckEvents(a, ctx, docs)
		authorized := 0
		for _, d := range docs {
			if d.Authorized {
				authorized++
			}
		}
		fmt.Fprintf(a.Io.Out, "checked %d event(s): %d authorized, %d not authorized, %d not checked (see stderr); %s\n",
			len(results), authorized, len(docs)-authorized, len(failed), timeSourceNote)
	}
	if worst == cmdutil.ExitOK {
		return nil
	}
	return &cmdutil.ExitError{Code: worst, Kind: "check-event", Printed: true,
		Err: fmt.Errorf("%d of %d event(s) were not found authorized", len(results)-countAuthorized(docs), len(results))}
}

func countAuthorized(docs []*report.CheckEvent) int {
	n := 0
	for _, d := range docs {
		if d.Authorized {
			n++
		}
	}
	return n
}

// renderCheckEvents prints each verdict, a blank line between them.
func renderCheckEvents(a *cmdutil.Factory, ctx context.Context, docs []*report.CheckEvent) {
	var who []string
	for _, d := range docs {
		who = append(who, d.Event.Npub)
		if d.Target != nil {
			who = append(who, d.Target.Npub)
		}
	}
	pt := render.PeopleShown(a, ctx, nil, who...)
	for i, d := range docs {
		if i > 0 {
			fmt.Fprintln(a.Io.Out)
		}
		renderCheckEventHuman(a.Io.Out, d, termui.NewStyles(a.Io.Out, a.Io.Color()), pt, render.TerminalWidth(a))
	}
}

// ghCheckEvent is one verdict as a workflow command: a notice when
// authorized, an error when not.
func ghCheckEvent(w io.Writer, d *report.CheckEvent) {
	repo := d.Repository.Npub + "/" + d.Repository.Identifier
	if d.Authorized {
		render.GhCommand(w, "notice", "roster: check-event "+d.Event.ID, fmt.Sprintf("%s (kind %d) by %s is authorized for %s at its created_at %s (asserted by its author)", d.Action, d.Event.Kind, d.Event.Npub, repo, d.Event.Created))
		return
	}
	render.GhCommand(w, "error", "roster: check-event "+d.Event.ID, fmt.Sprintf("%s (kind %d) by %s is not authorized for %s at its created_at %s (asserted by its author): %s", d.Action, d.Event.Kind, d.Event.Npub, repo, d.Event.Created, reasonText(*d.Reason)))
}

// checkEventsMarkdown is the job summary of check-event: one table row per
// event.
func checkEventsMarkdown(docs []*report.CheckEvent, failed []*cmdutil.ExitError) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## roster check-event: %d authorized of %d\n\n", countAuthorized(docs), len(docs)+len(failed))
	b.WriteString("| event | action | author | verdict |\n| --- | --- | --- | --- |\n")
	for _, d := range docs {
		verdict := "authorized"
		if !d.Authorized {
			verdict = "not authorized: " + reasonText(*d.Reason)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", render.MdCode(d.Event.ID), render.MdText(d.Action), render.MdCode(d.Event.Npub), render.MdText(verdict))
	}
	for _, e := range failed {
		id, _ := e.Details["event"].(string)
		fmt.Fprintf(&b, "| %s | | | %s |\n", render.MdCode(id), render.MdText("not checked: "+e.Err.Error()))
	}
	b.WriteString("\nTimes are each event's own `created_at`, which its author asserts.\n\n")
	return b.String()
}

// checkEvents runs the eventcheck pipeline with the user's relays, cache
// and clock for every reference at once.
func checkEvents(a *cmdutil.Factory, ctx context.Context, refs []eventcheck.Ref) ([]eventcheck.Result, error) {
	relays := relaypool.NormalizeRelays(a.DefaultRelays())
	if len(a.Opts.Relays) == 0 {
		for _, ref := range refs {
			relays = relaypool.NormalizeRelays(append(relays, ref.Relays...))
		}
	}
	if len(relays) == 0 {
		ref := refs[0]
		return nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "no-relays",
			Err:      fmt.Errorf("no relays to ask for event %s: the reference carries no relay hints, no --relay was given, ROSTER_RELAYS is unset and config.yaml in the roster home lists no relays", ref.ID),
			Commands: []suggest.Command{suggest.Roster("repo", "check-event", ref.ID).With("--relay", "wss://<relay>")}}
	}
	// The user's relays; each repository's read adds its coordinate's
	// hints unless --relay pins them.
	src, done := a.RepoSource(clirepo.DiscoveryRelays(a, gitstate.Selection{}), nil, cmdutil.SourceOptions{})
	defer done()
	p := eventcheck.Pipeline{Relays: relays, Source: src, Viewer: a.ViewerPubkey(), Now: a.Io.Now}
	if a.Opts.Repo != "" {
		sel, _, err := clirepo.SelectCoordinate(a, ctx)
		if err != nil {
			return nil, err
		}
		p.Selected = &sel
	}
	if len(a.Opts.Relays) > 0 {
		// --relay given: the references' hints are not asked.
		for i := range refs {
			refs[i].Relays = nil
		}
	}
	return p.CheckMany(ctx, refs), nil
}

// checkEventErr turns what the pipeline could not do for ref into an exit
// error: the pipeline's own failures (incomplete, not an action, needs a
// repository) by their class, what discovery could not do as every
// repository read says it, named for ref.
func checkEventErr(a *cmdutil.Factory, ref eventcheck.Ref, err error) error {
	var ee *cmdutil.ExitError
	if f := failure.Of(err); f != nil {
		return cmdutil.FailureError(f)
	}
	_, err = clirepo.RepoViewErr(a, nil, err)
	switch {
	case errors.As(err, &ee):
		// One repository's failure is shared by its events: each gets its
		// own copy naming it.
		c := *ee
		c.Details = map[string]any{"event": ref.ID}
		for k, v := range ee.Details {
			c.Details[k] = v
		}
		return &c
	}
	return err
}

// renderCheckEventHuman prints the verdict with dates, not epochs; people
// are named by pt, rows wrap to width (0: never).
func renderCheckEventHuman(w io.Writer, d *report.CheckEvent, st termui.Styles, pt render.PeopleText, width int) {
	p := &termui.Lines{W: w, St: st, Width: width}
	p.Row("event", fmt.Sprintf("%s (%s, kind %d)", d.Event.ID, d.Action, d.Event.Kind))
	p.Row("author", pt.Of(d.Event.Npub))
	p.Row("created", humanTime(d.Event.CreatedAt))
	p.Row("repository", d.Repository.Npub+"/"+termtext.Line(d.Repository.Identifier))
	if d.Target != nil {
		p.Row("target", fmt.Sprintf("kind %d %s by %s", d.Target.Kind, d.Target.ID, pt.Of(d.Target.Npub)))
	}
	switch {
	case d.Role != nil:
		how := "current " + *d.Role + " role"
		if !d.Current {
			how = "former " + *d.Role + " role"
		}
		p.Row("verdict", st.Apply(st.Good, "authorized")+": "+how+", "+intervalText(d.Interval))
		if d.HistorySource != nil {
			p.Note("interval from the resolved history, recorded by " + *d.HistorySource)
		}
	case d.Authorized:
		p.Row("verdict", st.Apply(st.Good, "authorized")+": the author wrote the target (author-specific actions on their own issue or proposal)")
	default:
		p.Row("verdict", st.Apply(st.Bad, "not authorized")+": "+reasonText(*d.Reason))
	}
}

func humanTime(t int64) string { return time.Unix(t, 0).UTC().Format("2006-01-02 15:04:05 UTC") }

func intervalText(iv *report.Interval) string {
	if iv == nil {
		return "no interval"
	}
	from := humanTime(iv.Start)
	if iv.StartUnknown {
		from = "an unknown start"
	}
	if iv.EndTime == nil {
		return "from " + from + ", still open"
	}
	return fmt.Sprintf("from %s until %s (%s end)", from, humanTime(*iv.EndTime), iv.End)
}

func reasonText(r string) string {
	switch r {
	case graph.ReasonNoAuthority:
		return "the repository's lead is unresolved (pending or conflicting), so nobody is authorized"
	case graph.ReasonBeforeStart:
		return "the event is older than the author's effective start (an acceptance does not authorize earlier events)"
	case graph.ReasonNoRole:
		return "no maintainer or moderator role of the author covered the event's time, and they did not write its target"
	case graph.ReasonNotConfirmed:
		return "repository state counts only from a currently confirmed maintainer (never a moderator, an invitee or a former maintainer), whatever its created_at"
	case eventcheck.ReasonOtherRepository:
		return "the event names no repository with --repo's identifier"
	}
	return r
}
