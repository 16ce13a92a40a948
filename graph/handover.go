package graph

import (
	"fmt"
	"slices"
)

// walkIncompleteHandover is the pending reason of a handover whose target has not
// established the complete active roster.
const walkIncompleteHandover = "handover has not yet established the target's complete active roster"

// incompleteHandover checks the last hop of an explicit walk, X -> lead,
// when X is a former lead (a valid self-M with a numeric end): the spec's
// handover has X keep only "her self-m and direct M:Bob relationship
// active" and change "every other current interval to historical-only", so
// X's open defer m copies are the roster X handed over. Each such subject
// must be covered by the lead's own records: listed (confirmed or
// invitation) or ended with a numeric boundary. A subject who left (numeric
// self end), deleted their announcement, or stays confirmed through some
// other active edge loses nothing. What remains is missing: "Co-maintainer
// defer histories cannot cover the omission because they never authorize
// their subjects." Reads the flags of the fixpoint seeded by the lead.
func incompleteHandover(pop *population, s *snapshot, lr leadResult) []string {
	if lr.source != LeadExplicit || len(lr.path) < 2 {
		return nil
	}
	lead, x := pop.parts[lr.lead], pop.parts[lr.path[len(lr.path)-2]]
	if lead == nil || x == nil || x == lead || !formerLead(x.ann) {
		return nil
	}
	var missing []string
	for i, r := range x.ann.Roles {
		if r.Letter != RoleMaint || !r.Valid || !r.Defer || r.Subject == x.key || r.Subject == lead.key {
			continue
		}
		sub := x.roleNodes[i]
		if sub.confirmed || sub.departed || sub.ann == nil && hasDeletion(s, sub.key) {
			continue
		}
		if LeadCovers(lead.ann, RoleMaint, sub.key) || leadEnded(lead.ann, sub.key) || slices.Contains(missing, sub.key) {
			continue
		}
		missing = append(missing, sub.key)
	}
	slices.Sort(missing)
	return missing
}

func hasDeletion(s *snapshot, author string) bool {
	_, ok := s.deleted[author]
	return ok
}

// formerLead: the author closed their own lead role with a numeric end.
func formerLead(a *Announcement) bool {
	for _, r := range a.Roles {
		if r.Letter == RoleLead && r.Subject == a.Author && r.NumericallyEnded() {
			return true
		}
	}
	return false
}

// LeadCovers reports whether the lead's own announcement actively lists
// subject in the role that an assignment with letter gives them, so turning
// somebody else's active assignment of subject into a defer copy keeps
// them: "Once Alice actively covers every third-party subject, repo
// follow-lead converts Bob's active assignments to defer copies ... without
// changing membership"; "If Alice does not list Carol, converting Bob's edge
// to history would remove an invitation or confirmed maintainer."
//
// A maintainer assignment (M or m) is covered by the lead's valid active M
// or m naming subject; the lead's o does not cover it (it would leave
// subject a moderator only). A moderator assignment (o) is covered by any
// valid active M, m or o naming subject. Records ending in defer, ended
// records and unparseable records cover nothing. The `maintainers`
// compatibility tag lists subjects only when the announcement has no
// indexed roles; beside any M, m or o tag it is a projection and covers
// nothing. A nil lead covers nothing.
func LeadCovers(lead *Announcement, letter byte, subject string) bool {
	if lead == nil {
		return false
	}
	for _, r := range lead.Roles {
		if r.Subject == subject && r.Active() && (r.Letter != RoleModerator || letter == RoleModerator) {
			return true
		}
	}
	return !lead.RoleAware() && slices.Contains(lead.LegacyListings(), subject)
}

// leadEnded: the lead's own M/m record for subject ends them with a signed
// boundary, a deliberate end a handover need not cover. A defer copy is no
// end.
func leadEnded(lead *Announcement, subject string) bool {
	for _, r := range lead.Roles {
		if r.Subject == subject && r.Letter != RoleModerator && r.NumericallyEnded() {
			return true
		}
	}
	return false
}

// resolveLead walks the lead pointers and grows the reciprocal fixpoint
// from the resulting seed; an incomplete handover turns the walk pending
// and withdraws the seed (pending seeds no authority).
func resolveLead(pop *population, s *snapshot, selected string) (leadResult, map[string]bool, map[string]bool) {
	lr := walkLead(pop, s, selected)
	confirmed, assigned := fixpoint(pop, lr.seed)
	if missing := incompleteHandover(pop, s, lr); len(missing) > 0 {
		lr.source, lr.reason, lr.failAt = LeadPending, fmt.Sprintf("%s: it neither lists nor ends %s", walkIncompleteHandover, npubs(missing)), lr.lead
		lr.lead, lr.seed, lr.missing = "", "", missing
		confirmed, assigned = fixpoint(pop, "")
	}
	return lr, confirmed, assigned
}
