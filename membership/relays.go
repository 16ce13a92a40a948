package membership

import (
	"slices"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
)

// noteRelays records in the preview which relays the discovery asked and
// whether their set converged (discovery.RelaySearch): first among the
// preview's checked comparisons, and in a refusal's details as
// relays_asked, so the user sees what the evidence covered.
func noteRelays(out *Outcome, v *discovery.View) {
	if v == nil || v.Search == nil {
		return
	}
	s := v.Search
	if out.Plan != nil {
		out.Plan.State.Checked = append([]string{s.Checked()}, slices.Clone(out.Plan.State.Checked)...)
		// Asked holds the relays that answered; the evidence-only ones
		// that did not are said among what was not checked.
		out.Plan.State.Counted.Relays = len(s.Asked)
		if na := s.NotAnswered(); na != "" {
			out.Plan.State.NotChecked = append(slices.Clone(out.Plan.State.NotChecked), na)
		}
	}
	if out.Refusal != nil && out.Refusal.Details != nil {
		learned := []map[string]any{}
		for _, l := range s.Learned {
			learned = append(learned, map[string]any{"url": l.URL, "from": l.From, "npub": graph.Npub(l.Pubkey), "round": l.Round})
		}
		out.Refusal.Details["relays_asked"] = map[string]any{"asked": slices.Clone(s.Asked), "given": s.Given, "learned": learned,
			"rounds": s.Rounds, "converged": s.Converged, "pinned": s.Pinned, "ignored": s.Ignored}
	}
}
