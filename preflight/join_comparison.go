package preflight

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// withJoinComparison completes a repository-join refusal with what the
// spec asks a join error to show besides the components and edges
// (maintainers.md: "A join error shows both components, the connecting
// edges, history differences, every transitively imported pubkey, and a
// ref-by-ref state comparison in both directions"): the resolved state
// before and after, the refs the join would change and their inverse, each
// imported person's latest state against the joined one, and the
// histories the join would leave unacknowledged (`history`). Nothing here
// changes the refusal; --force stays unavailable.
func withJoinComparison(r *Refusal, in Input, before, after *graph.Resolution, afterEvents []*nostr.Event, v *view, p *Plan) *Refusal {
	if r == nil || r.Code != "repository-join" {
		return r
	}
	si := stateInput(in, before, after, afterEvents, v)
	joined := DiffStates(si.Before, si.After)
	inverse := DiffStates(si.After, si.Before)
	imported := []map[string]any{}
	lines := []any{"", say("repository state: %s before, %s after the join", describeState(si.Before), describeState(si.After))}
	if len(joined) > 0 {
		lines = append(lines, "  the join would change:")
		lines = append(lines, indent(indent(renderRefActions(joined)))...)
	}
	for _, im := range p.Sim.Imported {
		st := in.readState(graph.LatestStateBy(in.Events, im.Pubkey))
		if st == nil {
			continue
		}
		d := DiffStates(st, si.After)
		imported = append(imported, map[string]any{"pubkey": npub(im.Pubkey), "event_id": st.EventID, "to_joined": d})
		if len(d) > 0 {
			lines = append(lines, say("  %s's state %s against the joined state:", who(im.Pubkey), st.EventID))
			lines = append(lines, indent(indent(renderRefActions(d)))...)
		}
	}
	history := []map[string]any{}
	for _, a := range p.Sim.PendingAcknowledgements {
		history = append(history, map[string]any{"author": npub(a.Author), "pubkey": npub(a.Pubkey), "transition": a.Transition, "time": a.Time})
	}
	if len(history) > 0 {
		lines = append(lines, fmt.Sprintf("history: %d role transition(s) of the joined component would stay unacknowledged", len(history)))
	}
	r.addLines(lines...)
	return r.with("state", map[string]any{"before": si.Before, "after": si.After, "join_would": joined, "inverse": inverse, "imported_states": imported}).
		with("history", history)
}
