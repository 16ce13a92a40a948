package change

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/hooks"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/membership"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// runMutation runs one membership change through the membership pipeline
// (discover with complete evidence, preview, recheck, sign, publish, read
// back, verify) and renders what it did. Never a prompt; --dry-run stops
// after the preview. lookups are the NIP-05 names the arguments were given
// as (the preview shows them).
func runMutation(a *cmdutil.Factory, ctx context.Context, intent preflight.Intent, dryRun bool, lookups cmdutil.Lookups) error {
	if a.Opts.Offline {
		return cmdutil.UsageErr("--offline cannot be used for a membership change: it needs complete answers from the relays (a cached event is not proof that it is still the latest)")
	}
	s, err := a.Signer(ctx)
	if err != nil {
		return err
	}
	// One progress line for the whole change, naming its phase. The
	// preview names people: their profiles are asked alongside the
	// discovery's deletion round (no round of their own).
	progress := termui.NewProgress(a.Io.Err, a.Io.ErrTTY)
	read := cmdutil.SourceOptions{Profiles: true, Progress: progress}
	q, done, err := repo.WriteQuery(a, ctx, read, intent.Subject, intent.Lead)
	if err != nil {
		return err
	}
	defer done()
	p := membership.Pipeline{
		Read:          q,
		Relays:        relaypool.Fresh(func() *relaypool.Pool { return a.Pool(cmdutil.AuthLazy, progress.Update) }),
		Now:           a.Io.Now,
		Signer:        s,
		Lock:          func(p0 context.Context, p1 string) (func(), error) { return changeLock(a, p0, p1) },
		Availability:  a.CheckAvailability,
		BeforeRecheck: a.Seams.BeforeRecheck,
		AfterPublish:  a.Seams.AfterPublish,
		Phase: func(name string) {
			a.Run.Phase = name
			progress.Phase(name)
		},
		Journal: a.Journal(),
		Notice:  func(us []journal.Unfinished) { progress.Done(); render.NoticeUnfinished(a, us) },
	}
	o, err := p.Run(ctx, intent, dryRun)
	progress.Done()
	if f := (*membership.Failure)(nil); errors.As(err, &f) {
		keepPublished(a, f.Outcome)
	} else if err == nil {
		keepPublished(a, o)
	}
	if err != nil {
		if f := (*membership.Failure)(nil); errors.As(err, &f) {
			a.Run.Journal = f.Journal
		}
		// What discovery could not do, in the read's words.
		_, err = repo.RepoViewErr(a, nil, err)
		return mutationFailure(a, intent, err)
	}
	if o.Refusal != nil {
		return refusalError(a, o.Before, intent, o.Refusal)
	}
	out := report.NewMutation(o.Before, o.Plan, dryRun)
	if intent.Action == preflight.ActAccept && !dryRun {
		repo.LinkAcceptedCheckout(o.Before, out)
		hooks.RecordConfirmation(a, ctx, s, o.Before)
	}
	recordDelivery(out, o)
	out.Verified = o.Verified
	out.Advice = append(out.Advice, olderServedAdvice(o)...)
	out.ResolvedAfter = o.After
	if o.Switch != nil {
		url := gitstate.NostrURL(o.Switch.To, nil)
		out.SwitchedTo = &url
		out.SwitchedRemotes = append(out.SwitchedRemotes, o.Switch.Remotes...)
		if !o.Switch.InCheckout {
			out.Advice = append(out.Advice, suggest.Guidance{
				Whats:   []suggest.Block{suggest.Text("no checkout here to switch; select the lead's coordinate from now on")},
				Command: &suggest.Command{Argv: []string{"roster", "repo", "--repo", gitstate.NostrURL(o.Switch.To, o.Switch.Hints)}}})
		}
	}
	return finishMutation(a, o.Before, o.Plan, out, lookups)
}

// recordDelivery copies what each relay said into the result.
func recordDelivery(out *report.Mutation, o *membership.Outcome) {
	if o == nil {
		return
	}
	if o.Delivery == nil {
		// Stopped after the state event and before the announcement.
		out.Published = append(out.Published, o.Published...)
		recordState(out, o)
		return
	}
	out.Relays = append(out.Relays, o.Delivery.Relays...)
	out.Published = append(out.Published, o.Published...)
	recordState(out, o)
}

// mutationFailure renders what stopped the pipeline: its own failures, a
// signer error, or the discovery's exit error with the change itself put
// first among the commands to run.
func mutationFailure(a *cmdutil.Factory, intent preflight.Intent, err error) error {
	var (
		f  *membership.Failure
		se *membership.SignerError
	)
	switch {
	case errors.As(err, &se):
		return cmdutil.SignerError(se.Err)
	case !errors.As(err, &f):
		return withMutationRetry(a, err, intent)
	}
	var v *repo.RepoView
	out := &report.Mutation{}
	if f.Outcome != nil {
		v = f.Outcome.Before
		recordDelivery(out, f.Outcome)
	}
	code := cmdutil.ExitCode(f.Class)
	switch f.Code {
	case membership.KindConcurrentChange:
		return mutationError(a, v, &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg),
			Details:  map[string]any{"changed": f.Changed},
			Commands: []suggest.Command{intent.Suggest()}})
	case membership.KindSignerMismatch:
		return &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg)}
	case membership.KindPublishFailed:
		return mutationError(a, v, &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg),
			Details:  map[string]any{"relays": out.Relays},
			Commands: []suggest.Command{intent.Suggest()}})
	case membership.KindLocalRefs:
		return mutationError(a, v, &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg),
			Commands: []suggest.Command{suggest.Git("fsck").Because("what is damaged in this checkout"), intent.Suggest().Because("once the refs read again")}})
	case membership.KindObjectsUnavailable, membership.KindObjectsUnknown:
		// Clone URLs come from announcements: each line is escaped alone.
		terminal := f.Msg
		if af := f.Availability.Failure(); af != nil {
			terminal = "cannot publish this change: " + strings.Join(termtext.Lines(af.Lines), "\n")
		}
		return mutationError(a, v, &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg), Terminal: terminal,
			Details:  gitstate.AvailabilityDetails(*f.Availability),
			Commands: f.Next})
	case membership.KindGitConfig:
		return &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg),
			Commands: []suggest.Command{suggest.Git("config", "nostr.repo", gitstate.EncodeNaddr(f.Switch.To, f.Switch.Hints))}}
	case membership.KindInconsistentRead:
		return mutationError(a, v, &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg),
			Details:  map[string]any{"relays": cmdutil.OrEmptySlice(f.Relays)},
			Commands: f.Next})
	case membership.KindInterrupted:
		return interruptedMutation(a, v, out, f)
	case membership.KindStatePublishFailed:
		// The announcement was never sent: the membership is unchanged. A
		// state event some relays accepted may be in effect there (exit 6,
		// the pipeline's class).
		return mutationErrorPublished(a, v, out, &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg),
			Details:  map[string]any{"published": out.Published, "relays": out.Relays, "problems": cmdutil.OrEmptySlice(f.Problems)},
			Commands: f.Next})
	case membership.KindPartlyPublished:
		// The state event is stored, the announcement is not: exit 6,
		// saying both, with commands that each preview before publishing.
		return mutationErrorPublished(a, v, out, &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg),
			Terminal: termtext.Line(f.Msg),
			Details: map[string]any{"published": out.Published, "relays": out.Relays, "state_published": out.StatePublished,
				"changed": cmdutil.OrEmptySlice(f.Changed), "problems": cmdutil.OrEmptySlice(f.Problems)},
			Commands: f.Next})
	case membership.KindSuperseded:
		// The rerun is the useful next step: it previews the version that
		// won and applies the change to it.
		return mutationErrorPublished(a, v, out, &cmdutil.ExitError{Code: code, Kind: f.Code,
			Err:      fmt.Errorf("%s:\n  %s", f.Msg, strings.Join(f.Problems, "\n  ")),
			Details:  map[string]any{"published": out.Published, "relays": out.Relays, "superseded_by": f.Superseded},
			Commands: f.Next})
	case membership.KindUnverified:
		// Rerunning the change would not republish it: where it was stored
		// it is already in effect, so the rerun is refused as already done.
		// The useful next step is to look at what each relay now serves.
		cmds := []suggest.Command{suggest.Roster("repo").Because("check what the relays now resolve")}
		for _, r := range out.Relays {
			if !r.OK || !r.ReadBack {
				cmds = append(cmds, suggest.Roster("repo").With("--relay", r.URL).Because("what "+r.URL+" serves now"))
			}
		}
		// Each problem is one line, and may quote a relay's OK message; the
		// people a problem names are named (its parts).
		const unverified = "%s:\n  %s\nit is in effect where it was stored; rerunning the change does not republish it"
		pt := repo.ViewPeople(a, v)
		named := make([]string, len(f.Problems))
		for i := range f.Problems {
			named[i] = termtext.Line(pt.Text(f.ProblemText(i)))
		}
		return mutationErrorPublished(a, v, out, &cmdutil.ExitError{Code: code, Kind: f.Code,
			Err:      fmt.Errorf(unverified, f.Msg, strings.Join(f.Problems, "\n  ")),
			Terminal: fmt.Sprintf(unverified, termtext.Line(f.Msg), strings.Join(named, "\n  ")),
			Details:  map[string]any{"published": out.Published, "relays": out.Relays, "problems": f.Problems},
			Commands: cmds})
	}
	return &cmdutil.ExitError{Code: code, Kind: f.Code, Err: errors.New(f.Msg), Commands: f.Next}
}

// withMutationRetry puts the change itself first among the commands of an
// incomplete read (exit 4) or of a selection with no relay to ask (exit 2):
// the read's own suggestions are `roster repo` reads, and the user wants to
// retry the change.
// An --offline suggestion is dropped: a membership change refuses --offline.
func withMutationRetry(a *cmdutil.Factory, err error, intent preflight.Intent) error {
	var ee *cmdutil.ExitError
	if !errors.As(err, &ee) || ee.Printed {
		return err
	}
	var cmds []suggest.Command
	switch {
	case ee.Kind == "relay-bound":
		// A longer timeout would not help: naming the relays does.
		cmds = []suggest.Command{intent.Suggest().With("--relay", "wss://<relay>").Because("the change, asking exactly the relays you name (--relay replaces relay discovery); nothing was published")}
	case ee.Code == cmdutil.ExitIncomplete:
		retry := intent.Suggest()
		if timedOut(ee.Details) {
			retry = retry.With("--timeout", "30s") // it helps only a relay that timed out
		}
		cmds = []suggest.Command{retry.Because("retry the change once every relay answers; nothing was published")}
	case ee.Kind == "no-relays":
		cmds = []suggest.Command{intent.Suggest().With("--relay", "wss://<relay>").Because("the change, on the relays that carry the repository")}
	default:
		return err
	}
	for _, c := range ee.Commands {
		if !c.Has("--offline") {
			cmds = append(cmds, c)
		}
	}
	ee.Commands = cmds
	return ee
}

// refusalError turns a preflight refusal into exit 3 (exit 2 for
// contradictory flags); "nothing-to-change" is success with a message.
func refusalError(a *cmdutil.Factory, v *repo.RepoView, intent preflight.Intent, r *preflight.Refusal) error {
	if r.Code == "nothing-to-change" {
		if a.Opts.JSON {
			out := report.NewMutation(v, nil, false)
			out.Action, out.Command, out.Verified = string(intent.Action), render.Selectors(a).Apply(intent.Suggest()).Line(), true
			out.Guidance = append(out.Guidance, r.Message)
			if intent.Action == preflight.ActAccept {
				repo.LinkAcceptedCheckout(v, out)
				out.Guidance = append(out.Guidance, suggest.Texts(out.Advice, render.Selectors(a))...)
			}
			return cmdutil.WriteJSON(a, out)
		}
		repo.PrintTargetFit(a.Io.Out, render.TerminalWidth(a), v)
		pt := repo.ViewPeople(a, v)
		render.FitLine(a.Io.Out, render.TerminalWidth(a), 2, pt.Text(r.MessageText()))
		if intent.Action == preflight.ActAccept {
			out := &report.Mutation{}
			repo.LinkAcceptedCheckout(v, out)
			repo.PrintLinked(a, out)
			for _, g := range out.Advice {
				line := termtext.Line(g.Text(pt.Named(render.Selectors(a))))
				if width := render.TerminalWidth(a); width > 0 && len([]rune(line)) > width {
					// Fitted to the terminal, the command whole on its own row.
					for _, l := range guidanceRows([]suggest.Guidance{g}, pt.Named(render.Selectors(a)), width) {
						fmt.Fprintln(a.Io.Out, strings.TrimPrefix(l, "  "))
					}
					continue
				}
				fmt.Fprintln(a.Io.Out, line)
			}
		}
		repo.PrintAdvisories(a, v)
		return nil
	}
	code := cmdutil.ExitCode(r.Class())
	// Err is the refusal itself: its message's parts name people
	// (render.PeopleText.Message).
	return mutationError(a, v, &cmdutil.ExitError{Code: code, Kind: r.Code, Err: r, Details: r.Details, Commands: r.Commands})
}

// mutationError prints a refusal or failure with the people fields (JSON)
// or the message, commands and advisories (human), and returns its code.
func mutationError(a *cmdutil.Factory, v *repo.RepoView, ee *cmdutil.ExitError) error {
	return mutationErrorPublished(a, v, nil, ee)
}

// mutationErrorPublished is mutationError after something was published:
// sent's published ids and relay answers fill the top-level `published`
// and `relays` of the JSON, as they do on success.
//
// Without a view (the change stopped while it discovered, before any
// repository was read) there is nothing to show but the error: the error
// object alone, as for any read that found nothing.
func mutationErrorPublished(a *cmdutil.Factory, v *repo.RepoView, sent *report.Mutation, ee *cmdutil.ExitError) error {
	render.WithJournal(ee, a.Run.Journal)
	if v == nil {
		render.PrintError(a, ee)
		if !a.Opts.JSON && (ee.Code == cmdutil.ExitRefused || ee.Code == cmdutil.ExitUsage) {
			fmt.Fprintln(a.Io.Err, "nothing was published")
		}
		ee.Printed = true
		return ee
	}
	cmds := render.Render(a, ee.Commands)
	if a.Opts.JSON {
		out := report.NewMutation(v, nil, false)
		if sent != nil {
			out.Published = append(out.Published, sent.Published...)
			out.Relays = append(out.Relays, sent.Relays...)
			out.StatePublished = sent.StatePublished
		}
		out.Error = &report.Error{Code: ee.Kind, Message: ee.Err.Error(), Details: cmdutil.OrEmptyMap(ee.Details), Commands: cmdutil.OrEmptySlice(cmds)}
		if err := cmdutil.WriteJSON(a, out); err != nil {
			// A --jq or --json-fields that fails on the result: the refusal's
			// exit code still stands.
			fmt.Fprintf(a.Io.Err, "roster: %s\n", cmdutil.HumanMessage(cmdutil.AsExitError(err)))
		}
	} else {
		repo.PrintTarget(a.Io.Err, v)
		pt := repo.ViewPeople(a, v)
		render.PrintHumanErrorAs(a, ee, pt.Named(render.Selectors(a)).RenderAll(ee.Commands), pt)
		if ee.Code == cmdutil.ExitRefused || ee.Code == cmdutil.ExitUsage {
			fmt.Fprintln(a.Io.Err, "nothing was published")
		}
		repo.PrintAdvisories(a, v)
	}
	ee.Printed = true
	return ee
}

// keepPublished stores in the cache what the relays returned of the event
// the change published (the read-back, verified like any fetch): the next
// write then knows that version even while a relay still answers with the
// one it replaced (discovery.NewerKnown), instead of building on it.
func keepPublished(a *cmdutil.Factory, o *membership.Outcome) {
	if o == nil || o.Delivery == nil || o.Delivery.ReadBack == nil {
		return
	}
	rb := o.Delivery.ReadBack
	store, err := a.Store("")
	if err != nil {
		return // the cache is an accelerator; the read already warned
	}
	defer store.Close()
	if err := store.C.PutVerified(rb.Verified(rb.Events)...); err != nil {
		fmt.Fprintf(a.Io.Err, "roster: warning: could not keep the published event in the local cache (%v)\n", err)
	}
}

// recordState records the kind 30618 event the change published first
// (--force, or the removal handoff) and what each relay said about it.
func recordState(out *report.Mutation, o *membership.Outcome) {
	if o.State == nil || o.Plan == nil || o.Plan.State.Publish == nil {
		return
	}
	ps := &report.PublishedState{EventID: o.State.ID, Reason: o.Plan.State.Publish.Reason, CreatedAt: int64(o.State.CreatedAt),
		Forced: o.Plan.State.Publish.Reason == preflight.PublishForce, Relays: []relaypool.Delivered{},
		Changes: preflight.DiffStates(o.Plan.State.Before, &preflight.ResolvedState{Head: o.Plan.State.Publish.Head, Refs: o.Plan.State.Publish.Refs})}
	if o.StateDelivery != nil {
		ps.Relays = append(ps.Relays, o.StateDelivery.Relays...)
	}
	out.StatePublished = ps
}

// timedOut reports whether an error's relays (details "relays") include one
// that timed out: only then does a longer --timeout help.
func timedOut(details map[string]any) bool {
	rs, _ := details["relays"].([]map[string]any)
	for _, r := range rs {
		if r["status"] == relaypool.StatusTimeout {
			return true
		}
	}
	return false
}
