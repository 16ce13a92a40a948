package preflight

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// compareActions is maintainers.md "Pre-existing role-scoped actions become
// newly visible": the status, label set, subject and cover note of every
// issue, patch and pull request the discovery found (Input.Actions),
// computed under the resolution before and after the change with each
// event's author authorized at its own created_at; any result that
// differs blocks the change ("An unexpected component join or newly
// authorized role-scoped action always blocks before signing"), naming
// every event whose authorization changes, its author and the result.
// It returns what it compared, for the preview's checked list.
func compareActions(in Input, before, after *graph.Resolution) (string, *Refusal) {
	if in.ActionsDropped > 0 {
		lines := []any{
			fmt.Sprintf("the relays hold more role-scoped events by this repository's people than roster compares (%d left out: too big, or older than the newest it compares)",
				in.ActionsDropped),
			"so it cannot tell whether this change would newly authorize one",
		}
		if len(in.ActionsLeftOut) > 0 {
			lines = append(lines, "left out: "+strings.Join(in.ActionsLeftOut, ", "))
		}
		lines = append(lines, "the author of an oversized status, label or cover note can delete it (NIP-09) and publish a smaller one; then run the change again")
		var cmds []suggest.Command
		for _, id := range in.ActionsLeftOut {
			if len(cmds) == 3 {
				break
			}
			cmds = append(cmds, suggest.Roster("repo", "check-event", id).Because("see who published "+id+" and what it does"))
		}
		return "", refuse("role-actions-over-limit", lines...).
			with("dropped", in.ActionsDropped).with("left_out", append([]string{}, in.ActionsLeftOut...)).run(cmds...)
	}
	ix := actions.NewIndex(current(in.Actions, in.Now))
	checked := fmt.Sprintf("role-scoped results before and after (status, labels, subject and cover note of %d issue(s), patch(es) and pull request(s), from %d status, label and cover-note event(s) at their created_at)",
		len(ix.Targets), ix.Actions)
	var changes []actions.Change
	lost := 0
	for _, c := range ix.Compare(before, after) {
		if slices.ContainsFunc(c.Events, func(e actions.EventShift) bool { return e.Newly }) {
			changes = append(changes, c)
		} else {
			// Only events no longer authorized: a history correction (a
			// follow-lead copying the lead's intervals) may do that, and
			// blocking it would block its own repair; it is said, not refused.
			lost++
		}
	}
	if lost > 0 {
		checked += fmt.Sprintf("; %d result(s) change only because events are no longer authorized", lost)
	}
	if len(changes) == 0 {
		return checked, nil
	}
	lines := []any{"this change would newly authorize role-scoped events that change a current result:"}
	var details []map[string]any
	var cmds []suggest.Command
	seen := map[string]bool{}
	for _, c := range changes {
		lines = append(lines, fmt.Sprintf("  %s %s: %s %s", targetName(c.TargetKind), c.Target, c.Result, fromTo(c.From, c.To)))
		evs := []map[string]any{}
		for _, e := range c.Events {
			how := "newly authorized"
			if !e.Newly {
				how = "no longer authorized"
			}
			lines = append(lines, say("    %s: kind %d event %s by %s, %s", how, e.Kind, e.ID, who(e.Author), time.Unix(e.CreatedAt, 0).UTC().Format(time.RFC3339)))
			evs = append(evs, map[string]any{"id": e.ID, "kind": e.Kind, "author": npub(e.Author), "created_at": e.CreatedAt, "newly_authorized": e.Newly})
			if !seen[e.ID] && len(cmds) < 3 {
				seen[e.ID] = true
				cmds = append(cmds, suggest.Roster("repo", "check-event", e.ID).Because("see who authorizes "+e.ID+" now"))
			}
		}
		details = append(details, map[string]any{"target": c.Target, "target_kind": c.TargetKind, "result": c.Result, "from": c.From, "to": c.To, "events": evs})
	}
	lines = append(lines,
		"a membership change must not make an earlier maintainer or moderator action authoritative as a side effect;",
		"reconcile the role history or the components deliberately first")
	return checked, refuse("newly-authorized-action", lines...).with("changes", details).run(cmds...)
}

// current drops the role-scoped events dated after now: their authorization
// is decided by the roles at their own time, which this change sets (a
// maintainer being removed could otherwise block the removal with a status
// dated in the future). Targets are kept.
func current(events []*nostr.Event, now int64) []*nostr.Event {
	out := make([]*nostr.Event, 0, len(events))
	for _, e := range events {
		if actions.IsTarget(e.Kind) || int64(e.CreatedAt) <= now {
			out = append(out, e)
		}
	}
	return out
}

func targetName(kind int) string {
	switch kind {
	case actions.KindPatch:
		return "patch"
	case actions.KindPullRequest:
		return "pull request"
	}
	return "issue"
}

func fromTo(from, to string) string {
	q := func(s string) string {
		if s == "" {
			return "(none)"
		}
		return strings.ReplaceAll(s, "\n", " ")
	}
	return q(from) + " -> " + q(to)
}

// checkActions runs compareActions on the plan's two resolutions and
// records what it compared in the preview's checked list.
func (p *Plan) checkActions(in Input) *Refusal {
	checked, r := compareActions(in, p.Before, p.After)
	if r != nil {
		return r
	}
	p.State.Checked = append(p.State.Checked, checked)
	return nil
}
