package preflight

import (
	"fmt"
	"slices"

	"github.com/roster-cli/roster/graph"
)

// buildFollowLead: `repo follow-lead` for a publisher who has a role to
// converge. A confirmed co-maintainer gets an active self-m, one direct
// active M to the resolved lead, their active third-party assignments turned
// into defer copies (only once the lead covers every subject), and the
// resolved history copied as historical-only. A removed maintainer ends their
// self-role (at the lead's recorded end when there is one) and keeps the M
// redirect. When nothing needs converging the draft is left as it is, and
// Prepare drops a replacement equal to the current announcement.
func buildFollowLead(d *draft, v *view) *Refusal {
	lead := v.lead
	if d.author == lead {
		return nil // the lead follows nobody; only the checkout may switch
	}
	if v.isConfirmed(d.author) {
		if r, ok, _ := d.find("M", d.author); ok && r.active() {
			return refuse("self-declared-lead",
				say("your announcement declares you lead, but this checkout's lead path resolves to %s", who(lead)),
				fmt.Sprintf("to hand the lead to them run: %s", Intent{Action: ActLead, Lead: lead}.Command())).
				run(Intent{Action: ActLead, Lead: lead}.Suggest())
		}
		var uncovered []string
		for _, s := range v.thirdPartyAssignments(d.author) {
			if !v.leadCovers(d.author, s) {
				uncovered = append(uncovered, s)
			}
		}
		if !hasIndexedRoles(d.tags) {
			for _, s := range legacyListings(d.tags, d.author) {
				if s != lead && !graph.LeadCovers(v.anns[lead], graph.RoleMaint, s) && !slices.Contains(uncovered, s) {
					uncovered = append(uncovered, s)
				}
			}
		}
		if len(uncovered) > 0 {
			return coMaintainerAssignsRefusal(v, d.author, uncovered)
		}
		if r := becomeCoMaintainer(d, lead, true); r != nil {
			return r
		}
		return syncHistory(d, v, lead)
	}
	// Not confirmed: a removed maintainer ends the self-role that still stands.
	if r, ok, _ := d.find("m", d.author); ok && r.active() {
		at := d.at
		if h := v.historyOf("m", d.author); h != nil && len(h.starts)%2 == 0 && len(h.starts) > 0 {
			if end := h.starts[len(h.starts)-1]; end <= d.at && (len(r.starts) == 0 || end >= r.starts[len(r.starts)-1]) {
				at = end
			}
		}
		if err := d.endAt("m", d.author, at); err != nil {
			return refuse("history-blocks-change", err.Error())
		}
		for _, rr := range records(d.tags) {
			if rr.active() && rr.subject != d.author && rr.letter != "M" {
				if err := d.deferRecord(rr.letter, rr.subject); err != nil {
					return refuse("history-blocks-change", err.Error())
				}
			}
		}
		return syncHistory(d, v, lead)
	}
	return nil
}

// syncHistory copies the resolved history of every third-party role into the
// publisher's view as historical-only: a closed interval with its numeric
// end, a still-open one ending in defer. The publisher's own records, their
// direct lead pointer and any numeric end they signed are left as they are;
// graph's resolved history already excludes unparseable source records.
func syncHistory(d *draft, v *view, lead string) *Refusal {
	for _, h := range v.history {
		if h.invitation || h.subject == d.author || (h.letter == "M" && h.subject == lead) || len(h.starts) == 0 {
			continue
		}
		r, ok, err := d.find(h.letter, h.subject)
		if err != nil {
			return refuse("ambiguous-history", err.Error())
		}
		if ok && !r.deferred {
			continue // active (the guarded conversion handled it) or a signed numeric end: keep
		}
		open := len(h.starts)%2 == 1
		if err := d.set(h.letter, h.subject, h.starts, open); err != nil {
			return refuse("ambiguous-history", err.Error())
		}
	}
	return nil
}
