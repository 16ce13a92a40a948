package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/eventcheck"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// newRepoCheckEventCmd is `roster repo check-event`: for CI and bots,
// whether a status, label, subject or cover note's author was authorized
// at its created_at under its repository's resolution (exit 0 yes, 5 no, 4
// evidence incomplete).
func newRepoCheckEventCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "check-event <nevent|note1|hex id>",
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
     relay did not answer`,
		Example: `  roster repo check-event nevent1...
  roster repo check-event note1... --relay wss://relay.example --json
  roster repo check-event <64-hex id> --repo nostr://npub1.../my-repo --jq .authorized
  roster repo check-event <state event id> --repo nostr://npub1.../my-repo   # kind 30618`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, err := eventcheck.ParseRef(args[0])
			if err != nil {
				return usageErr("%s", err.Error())
			}
			v, err := a.checkEvent(cmd.Context(), ref)
			if err != nil {
				return err
			}
			doc := report.CheckEventOf(v)
			if a.opts.JSON {
				if err := writeJSON(a, doc); err != nil {
					return err
				}
			} else {
				who := []string{doc.Event.Npub}
				if doc.Target != nil {
					who = append(who, doc.Target.Npub)
				}
				renderCheckEventHuman(a.io.Out, doc, termui.NewStyles(a.io.Out, a.io.color()), a.peopleShown(cmd.Context(), nil, who...), a.terminalWidth())
			}
			if !doc.Authorized {
				return &exitError{Code: exitUnhealthy, Kind: "not-authorized", Printed: true,
					Err: fmt.Errorf("event %s: its author was not authorized for it at its created_at (%s)", v.Event.ID, *doc.Reason)}
			}
			return nil
		},
	}
}

// checkEvent runs the eventcheck pipeline with the user's relays, cache
// and clock, turning what it could not do into exit errors.
func (a *app) checkEvent(ctx context.Context, ref eventcheck.Ref) (*eventcheck.Verdict, error) {
	relays := relaypool.NormalizeRelays(a.defaultRelays())
	if len(a.opts.Relays) == 0 {
		relays = relaypool.NormalizeRelays(append(relays, ref.Relays...))
	}
	if len(relays) == 0 {
		return nil, &exitError{Code: exitUsage, Kind: "no-relays",
			Err:      fmt.Errorf("no relays to ask for event %s: the reference carries no relay hints, no --relay was given, ROSTER_RELAYS is unset and config.yaml in the roster home lists no relays", ref.ID),
			Commands: []suggest.Command{suggest.Roster("repo", "check-event", ref.ID).With("--relay", "wss://<relay>")}}
	}
	p := eventcheck.Pipeline{
		Relays: relays,
		Pool: func() *relaypool.Pool {
			return relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: a.authSigner})
		},
		Discover: func(ctx context.Context, sel gitstate.Selection) (*discovery.View, error) {
			src, done := a.repoSource(a.discoveryRelays(sel), nil)
			v, err := discovery.Load(ctx, src, sel, nil, completeEvidence, a.viewerPubkey(), a.io.Now().Unix())
			done()
			return a.repoViewErr(v, err)
		},
	}
	if a.opts.Repo != "" {
		sel, _, err := a.selectCoordinate(ctx)
		if err != nil {
			return nil, err
		}
		p.Selected = &sel
	}
	v, err := p.Check(ctx, ref)
	var inc *eventcheck.Incomplete
	var notAction *eventcheck.NotAnAction
	var needsRepo *eventcheck.NeedsRepository
	switch {
	case errors.As(err, &inc):
		details := map[string]any{"event": ref.ID}
		if inc.Fetch != nil {
			rel := []map[string]any{}
			for _, r := range inc.Fetch.Relays {
				rel = append(rel, map[string]any{"url": r.URL, "status": r.Status, "reason": r.Reason, "events": r.Events})
			}
			details["relays"] = rel
		}
		return nil, &exitError{Code: exitIncomplete, Kind: "incomplete", Err: errors.New(inc.Reason), Details: details,
			Commands: []suggest.Command{suggest.Roster("repo", "check-event", ref.ID).With("--relay", "wss://<relay holding it>").Because("ask a relay that holds the event")}}
	case errors.As(err, &needsRepo):
		return nil, &exitError{Code: exitUsage, Kind: "no-coordinate", Err: err, Details: map[string]any{"event": ref.ID, "identifier": needsRepo.Event.Tags.GetD()},
			Commands: []suggest.Command{suggest.Roster("repo", "check-event", ref.ID).With("--repo", "<naddr|nostr://npub/identifier>")}}
	case errors.As(err, &notAction):
		return nil, &exitError{Code: exitUsage, Kind: "usage", Err: err, Details: map[string]any{"event": ref.ID, "kind": notAction.Event.Kind}}
	}
	return v, err
}

// renderCheckEventHuman prints the verdict with dates, not epochs; people
// are named by pt, rows wrap to width (0: never).
func renderCheckEventHuman(w io.Writer, d *report.CheckEvent, st termui.Styles, pt peopleText, width int) {
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
