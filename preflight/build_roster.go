package preflight

import (
	"fmt"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// selfAddRefusal answers --add-maintainer <you>. It comes before the
// governance choice: no choice of lead makes it possible, so suggesting one
// would only lead to this refusal.
func selfAddRefusal(v *view, author string) *Refusal {
	if v.isConfirmed(author) {
		// Only an invitee has something to accept.
		return refuse("self-add", "you cannot invite yourself, and you already maintain this repository").
			run(suggest.Roster("repo").Because("who maintains it"))
	}
	return refuse("self-add", "you cannot invite yourself; to accept an invitation run: roster repo accept").run(graph.CommandAccept())
}

// buildAdd: --add-maintainer X. The publisher's active m:X starts now; a
// sole or legacy author first materializes their existing relationships in
// their destination roles (first invite: untimed self-M, never an m->M
// promotion), and a leadless/legacy lead choice of self promotes at the same
// boundary.
func buildAdd(d *draft, v *view, in Intent, dest destination) *Refusal {
	x := in.Subject
	if x == d.author {
		return selfAddRefusal(v, x)
	}
	if v.isConfirmed(x) && v.lists(d.author, x) {
		return refuse("already-maintainer", say("%s is already a confirmed maintainer you list", who(x))).with("pubkey", npub(x))
	}
	if r := applyGovernance(d, dest); r != nil {
		return r
	}
	if r, ok, err := d.find("m", x); err != nil {
		return refuse("ambiguous-history", err.Error())
	} else if ok && r.active() {
		return refuse("already-invited", say("you already list %s; they are invited until they accept with: roster repo accept", who(x))).with("pubkey", npub(x))
	}
	if r, ok, _ := d.find("M", x); ok && r.active() {
		return refuse("already-listed", say("%s is already your active lead pointer", who(x)))
	}
	if err := d.start("m", x); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	return nil
}

// applyGovernance writes the governance shape an add or remove keeps: the
// legacy classification, and for a lead choice of self the self-M (closing a
// leadless self-m at the same boundary: an accepted m->M promotion).
func applyGovernance(d *draft, dest destination) *Refusal {
	if err := d.classifyLegacy(dest, ""); err != nil {
		return refuse("ambiguous-history", err.Error())
	}
	if dest != destLead {
		return nil
	}
	if r, ok, _ := d.find("M", d.author); ok && r.active() {
		return nil
	}
	if err := d.end("m", d.author); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	if err := d.start("M", d.author); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	return nil
}

// buildRemove: --remove-maintainer X closes only the publisher's own active
// relationship to X at now.
func buildRemove(d *draft, v *view, in Intent, dest destination) *Refusal {
	x := in.Subject
	if x == d.author {
		return refuse("self-remove", "to end your own maintainership run: roster repo leave").run(suggest.Roster("repo", "leave"))
	}
	if r := applyGovernance(d, dest); r != nil {
		return r
	}
	if r, ok, _ := d.find("M", x); ok && r.active() {
		return refuse("remove-lead-pointer",
			say("%s is your lead; --remove-maintainer does not change the lead", who(x)),
			"change the lead with its own command first:").run(Intent{Action: ActLead, Lead: d.author}.Suggest())
	}
	r, ok, err := d.find("m", x)
	if err != nil {
		return refuse("ambiguous-history", err.Error())
	}
	if !ok || !r.active() {
		return refuse("not-listed", say("your announcement does not actively list %s; there is no relationship of yours to remove", who(x))).
			with("pubkey", npub(x)).run(suggest.Roster("repo").Because("who maintains it, and who lists whom"))
	}
	if err := d.end("m", x); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	return nil
}

// buildLeadSelf: --lead-maintainer <self>. The publisher prepares as lead:
// active self-M, self-m and any old lead pointer closed at the same boundary,
// and the complete active roster (every confirmed maintainer, invitation and
// moderator of the resolved view) assigned actively. Deferred copies become
// the author's own assignment of the same interval; missing ones take the
// resolved history, else start now.
func buildLeadSelf(d *draft, v *view) *Refusal {
	if !v.isConfirmed(d.author) {
		return notMaintainerRefusal(v, d.author)
	}
	if err := d.classifyLegacy(destLead, ""); err != nil {
		return refuse("ambiguous-history", err.Error())
	}
	for _, r := range records(d.tags) {
		if r.valid && r.letter == "M" && r.subject != d.author && r.active() {
			if err := d.end("M", r.subject); err != nil {
				return refuse("history-blocks-change", err.Error())
			}
		}
	}
	if r := applyGovernance(d, destLead); r != nil {
		return r
	}
	roster := func(letter string, people []string) *Refusal {
		for _, p := range people {
			if p == d.author {
				continue
			}
			if letter == "m" {
				if r, ok, _ := d.find("M", p); ok && r.active() {
					continue
				}
			}
			r, ok, err := d.find(letter, p)
			if err != nil {
				return refuse("ambiguous-history", err.Error())
			}
			switch {
			case ok && r.active():
				// "The new lead first acknowledges the retained view": an
				// active assignment of a confirmed maintainer carries their
				// effective start (a rerun of the preparation fixes it).
				if letter == "m" {
					if err := d.acknowledgeStart(r, v.eff[p]); err != nil {
						return refuse("history-blocks-change", err.Error())
					}
				}
			case ok && r.deferred:
				if _, err := d.reactivate(letter, p); err != nil {
					return refuse("ambiguous-history", err.Error())
				}
			case !ok:
				if h := v.historyOf(letter, p); h != nil && len(h.starts)%2 == 1 {
					if err := d.set(letter, p, h.starts, false); err != nil {
						return refuse("ambiguous-history", err.Error())
					}
					continue
				}
				if eff, known := v.eff[p]; known && letter == "m" {
					// A confirmed maintainer the author never recorded (the
					// old lead): assign from their effective start, untimed
					// when that start is unknown, never inventing one.
					var err error
					if eff == 0 {
						err = d.materialize("m", p)
					} else {
						err = d.set("m", p, []int64{eff}, false)
					}
					if err != nil {
						return refuse("ambiguous-history", err.Error())
					}
					continue
				}
				fallthrough
			default:
				if err := d.start(letter, p); err != nil {
					return refuse("history-blocks-change", err.Error())
				}
			}
		}
		return nil
	}
	if r := roster("m", append(append([]string{}, v.confirmed...), v.invited...)); r != nil {
		return r
	}
	return roster("o", append(append([]string{}, v.modConfirm...), v.modInvited...))
}

// buildLeadOther: --lead-maintainer L (L != publisher). The publisher becomes
// L's co-maintainer: active M:L and self-m, a self-M closed at the same
// boundary, and every other current role turned into historical-only defer.
func buildLeadOther(d *draft, v *view, lead string) *Refusal {
	if !v.isConfirmed(d.author) {
		return notMaintainerRefusal(v, d.author)
	}
	if !v.isConfirmed(lead) {
		return leadNotConfirmedRefusal(lead)
	}
	if !v.declaresSelfLead(lead) {
		return refuse("lead-not-prepared",
			say("%s has not prepared to lead: their announcement has no active self-M with the complete roster", who(lead)),
			say("ask %s to run:", who(lead)),
			"  "+Intent{Action: ActLead, Lead: lead}.Command(),
			"then rerun this command").
			with("proposed_lead", npub(lead)).
			run(Intent{Action: ActLead, Lead: lead}.Suggest().ByPerson(npub(lead)))
	}
	return becomeCoMaintainer(d, lead, true)
}

// becomeCoMaintainer rewrites the draft into ngit's canonical co-maintainer
// shape toward lead: active self-m, one active direct M to lead, any other
// active M closed at now, and (when deferOthers) every other active
// third-party record turned into a defer copy.
func becomeCoMaintainer(d *draft, lead string, deferOthers bool) *Refusal {
	if err := d.classifyLegacy(destCoMaintainer, lead); err != nil {
		return refuse("ambiguous-history", err.Error())
	}
	for _, r := range records(d.tags) {
		if !r.valid || !r.active() {
			continue
		}
		var err error
		switch {
		case r.letter == "M" && r.subject != lead:
			err = d.end("M", r.subject)
		case r.subject == d.author || r.letter == "M":
		case deferOthers:
			err = d.deferRecord(r.letter, r.subject)
		}
		if err != nil {
			return refuse("history-blocks-change", err.Error())
		}
	}
	if err := d.start("m", d.author); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	if err := d.start("M", lead); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	return nil
}

// declaresSelfLead reports whether p's latest announcement has an active self-M.
func (v *view) declaresSelfLead(p string) bool {
	a := v.anns[p]
	return a != nil && a.DeclaresLead()
}

func (v *view) historyOf(letter, subject string) *historyRecord {
	for i := range v.history {
		if v.history[i].letter == letter && v.history[i].subject == subject {
			return &v.history[i]
		}
	}
	return nil
}

// acknowledgeStart moves the start of r's current interval to eff, the
// subject's effective start, when eff is known (> 0) and differs; it never
// moves a start before the record's previous end.
func (d *draft) acknowledgeStart(r record, eff int64) error {
	if eff <= 0 || len(r.starts) == 0 || r.starts[len(r.starts)-1] == eff {
		return nil
	}
	starts := append([]int64{}, r.starts...)
	if n := len(starts); n > 1 && starts[n-2] > eff {
		return fmt.Errorf("the effective start %d of %s precedes the previous end %d of your record", eff, npub(r.subject), starts[n-2])
	}
	starts[len(starts)-1] = eff
	return d.set(r.letter, r.subject, starts, false)
}

// staleInRoster returns the confirmed maintainers whose active assignment in
// lead's announcement does not carry their known effective start: the
// proposed lead's history is missing a resolved transition.
func (v *view) staleInRoster(lead string) []string {
	a := v.anns[lead]
	if a == nil {
		return nil
	}
	var out []string
	for _, r := range a.Roles {
		if r.Letter != graph.RoleMaint || r.Subject == lead || !r.Active() || r.Untimed() || !v.isConfirmed(r.Subject) {
			continue
		}
		if eff := v.eff[r.Subject]; eff > 0 && r.LastStart() != eff {
			out = append(out, r.Subject)
		}
	}
	return out
}
