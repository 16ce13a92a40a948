package preflight

import (
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// thirdPartyGateWarning is an add's warning that the invitee's own active
// third-party assignments (an `o` or `m` naming someone else, which ngit
// never writes for a co-maintainer) will gate the lead once the invitee is
// confirmed (maintainers.md invariant: "If another client does, every
// command warns both co-maintainer and lead. The co-maintainer may run only
// repo follow-lead; the lead may run only the required one-at-a-time
// adds"). It is said in the preview, before the edge is published, with
// the first add that covers a subject.
func thirdPartyGateWarning(v *view, in Input) []suggest.Guidance {
	if in.Intent.Action != ActAdd || v.leadSource != graph.LeadExplicit || in.Author != v.lead {
		return nil
	}
	subject := in.Intent.Subject
	a := v.anns[subject]
	if subject == v.lead || a == nil || !a.RoleAware() || v.declaresSelfLead(subject) {
		return nil
	}
	subjects := graph.ThirdPartySubjects(a, v.lead)
	if len(subjects) == 0 {
		return nil
	}
	cover := v.coverIntent(subject, subjects[0])
	return []suggest.Guidance{{
		Whats: []suggest.Block{say("%s's announcement actively assigns %s itself (a third-party role ngit never writes for a co-maintainer): once %s is confirmed, every edit of yours is refused except the adds that cover them, one at a time, until %s runs roster repo follow-lead",
			who(subject), people(subjects, ", "), who(subject), who(subject))},
		Command: ptrCommand(cover.Suggest().Because("the first add that covers it"))}}
}

func ptrCommand(c suggest.Command) *suggest.Command { return &c }
