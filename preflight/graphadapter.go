package preflight

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// parseRecord reads one role tag with graph's parser and keeps its position.
// A self-defer parses as valid here (graph.ParseRoleRecord does not know the
// author); the builders treat it through record.selfDefer and the gates.
func parseRecord(index int, t nostr.Tag) record {
	g := graph.ParseRoleRecord(t)
	r := record{index: index, subject: g.Subject, starts: slices.Clone(g.Boundaries), deferred: g.Defer, valid: g.Valid, raw: t}
	if len(t) > 0 {
		r.letter = t[0]
	}
	return r
}

// projection is graph's exact `maintainers` compatibility set for these tags.
func projection(tags nostr.Tags) []string {
	a := &graph.Announcement{}
	for i, t := range tags {
		if len(t) > 0 && graph.IsRoleLetter(t[0]) {
			g := graph.ParseRoleRecord(t)
			g.Index = i
			a.Roles = append(a.Roles, g)
		}
	}
	return graph.ExpectedProjection(a)
}

// fromResolution reduces a graph resolution to what the builders and gates
// read. history is the lead's own records (the roster coordinator's view),
// with each confirmed maintainer's current start moved to graph's effective
// start: exactly what graph's pending acknowledgements compare copies with.
// A view without an explicit lead has no history.
func fromResolution(r *graph.Resolution, viewer string) *view {
	v := &view{
		selected:   r.SelectedMaintainer,
		lead:       r.Lead,
		leadSource: r.LeadSource,
		leadPath:   slices.Clone(r.LeadPath),
		latest:     map[string]*nostr.Event{},
		anns:       r.Announcements,
		eff:        map[string]int64{},
	}
	for _, m := range r.Maintainers {
		if m.Status == graph.StatusConfirmed {
			v.confirmed = append(v.confirmed, m.Pubkey)
			if t, ok := r.EffectiveStart(m.Pubkey); ok {
				v.eff[m.Pubkey] = t
			}
		} else {
			v.invited = append(v.invited, m.Pubkey)
		}
	}
	for _, m := range r.Moderators {
		if m.Status == graph.StatusConfirmed {
			v.modConfirm = append(v.modConfirm, m.Pubkey)
		} else {
			v.modInvited = append(v.modInvited, m.Pubkey)
		}
	}
	for author, a := range r.Announcements {
		v.latest[author] = a.Event
	}
	for _, p := range r.PendingAcknowledgements {
		if p.Author == viewer {
			v.acks = append(v.acks, p)
		}
	}
	if r.LeadSource == graph.LeadExplicit {
		v.history = leadHistory(r)
	}
	return v
}

// leadHistory is the explicit lead's own record of everybody else, one
// per letter and subject (the first, as written), with each confirmed
// maintainer's current start moved to graph's effective start.
func leadHistory(r *graph.Resolution) []historyRecord {
	la := r.Announcements[r.Lead]
	if la == nil {
		return nil
	}
	var out []historyRecord
	seen := map[[2]string]bool{}
	for _, rec := range la.Roles {
		k := [2]string{string(rec.Letter), rec.Subject}
		if !rec.Valid || rec.Subject == r.Lead || seen[k] {
			continue
		}
		seen[k] = true
		if rec.Defer {
			continue // the lead's own historical-only copies are not the roster coordinator's record
		}
		h := historyRecord{letter: k[0], subject: rec.Subject, starts: slices.Clone(rec.Boundaries)}
		if rec.Active() && rec.Letter != graph.RoleModerator && r.Confirmed(rec.Subject) {
			if eff, ok := r.EffectiveStart(rec.Subject); ok {
				if len(h.starts) == 0 {
					h.starts = []int64{eff}
				} else {
					h.starts[len(h.starts)-1] = eff
				}
			}
		}
		if len(h.starts) == 0 {
			h.starts = []int64{0} // unknown start, materialized as 0 like an ended untimed record
		}
		h.invitation = rec.Active() && !r.Confirmed(rec.Subject) && rec.Letter != graph.RoleModerator ||
			rec.Active() && rec.Letter == graph.RoleModerator && !r.ConfirmedModerator(rec.Subject)
		out = append(out, h)
	}
	return out
}
