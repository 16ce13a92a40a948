package graph

import "sort"

// LeadSource is how the lead was (or was not) resolved: exactly the seven
// outcomes of the spec's "Lead resolution".
type LeadSource string

const (
	LeadImplicitSole   LeadSource = "implicit_sole"
	LeadExplicit       LeadSource = "explicit"
	LeadLegacyInferred LeadSource = "legacy_inferred"
	LeadExplicitNone   LeadSource = "explicit_none"
	LeadNone           LeadSource = "none"
	LeadPending        LeadSource = "pending"
	LeadConflict       LeadSource = "conflict"
)

// Reasons a pointer walk failed; they end up in health messages.
const (
	walkMissingTarget   = "target announcement missing"
	walkDeletedTarget   = "target deleted their announcement"
	walkNotAccepted     = "target has no active lead pointer"
	walkTerminalBlocked = "target's self-role is invalid (self-defer or malformed)"
	walkMultiple        = "announcement has several active lead pointers"
	walkCycle           = "lead pointers form a cycle"
	walkDeparted        = "target ended their own role"
	walkSelectedMissing = "selected announcement not found"
	walkSelectedBlocked = "selected author's self-role is invalid (self-defer or malformed) and not validly ended"
)

type leadResult struct {
	lead    string
	source  LeadSource
	path    []string
	seed    string   // who seeds the reciprocal fixpoint; "" fails closed
	reason  string   // why a walk is pending or conflicting
	failAt  string   // the announcement whose instruction could not be followed
	viaWalk bool     // the selected announcement has an active M
	missing []string // an incomplete handover: who the target's roster omits
}

// walkLead follows one valid active M per announcement from the selected
// author to a terminal self-M. Malformed M records never reach here
// (SingleLeadTarget only counts valid active ones), so they are ignored
// rather than treated as a conflict.
func walkLead(pop *population, s *snapshot, selected string) leadResult {
	parts := pop.parts
	res := leadResult{path: []string{selected}}
	p := parts[selected]
	if p == nil {
		if _, deleted := s.deleted[selected]; deleted {
			res.source = LeadNone
			return res
		}
		res.source, res.reason, res.failAt = LeadPending, walkSelectedMissing, selected
		return res
	}
	if p.blocked && !p.departed {
		// "When the selected author is unconfirmed because of such broken
		// records ... and has not validly departed, clients keep the
		// coordinate's signed metadata readable without granting member or
		// state authority." "A valid numeric departure prevails even
		// beside malformed tags": a departed author forwards as usual.
		res.source, res.reason, res.failAt = LeadPending, walkSelectedBlocked, selected
		return res
	}
	if _, n := p.ann.SingleLeadTarget(); n == 0 {
		return leadless(pop, p, selected)
	}
	res.viaWalk = true
	visited := map[string]bool{selected: true}
	cur := selected
	for {
		t, n := parts[cur].ann.SingleLeadTarget()
		switch {
		case n > 1:
			res.source, res.reason, res.failAt = LeadConflict, walkMultiple, cur
			return res
		case n == 0:
			res.source, res.reason, res.failAt = LeadPending, walkNotAccepted, cur
			return res
		}
		if t == cur {
			if !parts[cur].eligible() {
				res.source, res.reason, res.failAt = LeadPending, walkTerminalBlocked, cur
				return res
			}
			res.source, res.lead, res.seed = LeadExplicit, cur, cur
			return res
		}
		res.path = append(res.path, t)
		if visited[t] {
			res.source, res.reason, res.failAt = LeadConflict, walkCycle, t
			return res
		}
		pt := parts[t]
		if pt == nil {
			if _, deleted := s.deleted[t]; deleted {
				res.source, res.reason, res.failAt = LeadConflict, walkDeletedTarget, t
			} else {
				res.source, res.reason, res.failAt = LeadPending, walkMissingTarget, t
			}
			return res
		}
		// "a co-maintainer or former maintainer preserving a redirect
		// points to the lead. If the target points onward, resolution
		// continues." A departed target without an onward pointer has
		// "explicitly left": a conflict, not a target that "has not
		// accepted".
		if _, n := pt.ann.SingleLeadTarget(); pt.departed && n == 0 {
			res.source, res.reason, res.failAt = LeadConflict, walkDeparted, t
			return res
		}
		visited[t] = true
		cur = t
	}
}

// leadless classifies a selected announcement with no valid active M. The
// selected author seeds the reciprocal fixpoint in every case.
func leadless(pop *population, p *participant, selected string) leadResult {
	res := leadResult{path: []string{selected}, seed: selected}
	a := p.ann
	switch {
	case a.ImplicitSole():
		res.source, res.lead = LeadImplicitSole, selected
	case a.RoleAware():
		res.source = LeadNone
		for _, r := range a.Roles {
			if r.Letter == RoleMaint && r.Active() {
				res.source = LeadExplicitNone
				break
			}
		}
	default:
		confirmed, assigned := fixpoint(pop, selected)
		if len(confirmed) == 1 && confirmed[selected] && len(assigned) == 0 {
			// A legacy announcement listing only its author is the
			// sole-maintainer case ngit writes by default.
			res.source, res.lead = LeadImplicitSole, selected
			return res
		}
		res.lead = legacyVote(pop.parts, confirmed)
		res.source = LeadNone
		if res.lead != "" {
			res.source = LeadLegacyInferred
		}
	}
	return res
}

// legacyVote counts every active legacy listing and every valid active
// indexed M between two distinct confirmed maintainers as one vote for its
// subject; the unique highest positive count wins. Defer M records are not
// active, so they never vote.
func legacyVote(parts map[string]*participant, confirmed map[string]bool) string {
	votes := map[string]int{}
	for x := range confirmed {
		a := parts[x].ann
		if !a.RoleAware() {
			for _, y := range parts[x].listings {
				if confirmed[y] {
					votes[y]++
				}
			}
			continue
		}
		for _, y := range a.ActiveLeadTargets() {
			if y != x && confirmed[y] {
				votes[y]++
			}
		}
	}
	keys := make([]string, 0, len(votes))
	for k := range votes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	best, bestN, tie := "", 0, false
	for _, k := range keys {
		switch n := votes[k]; {
		case n > bestN:
			best, bestN, tie = k, n, false
		case n == bestN:
			tie = true
		}
	}
	if tie || bestN == 0 {
		return ""
	}
	return best
}
