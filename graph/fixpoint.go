package graph

import "sort"

// Component is the reciprocal fixpoint grown from one seed: the virtual
// repository for one identifier and one selected coordinate.
type Component struct {
	Seed      string   `json:"seed"`
	Confirmed []string `json:"confirmed"` // sorted
	Invited   []string `json:"invited"`   // listed by a confirmed maintainer, not confirmed; sorted
}

func componentOf(seed string, confirmed, assigned map[string]bool) Component {
	c := Component{Seed: seed, Confirmed: []string{}, Invited: []string{}}
	for k := range confirmed {
		c.Confirmed = append(c.Confirmed, k)
	}
	for k := range assigned {
		if !confirmed[k] {
			c.Invited = append(c.Invited, k)
		}
	}
	sort.Strings(c.Confirmed)
	sort.Strings(c.Invited)
	return c
}

// fixpoint confirms a candidate when a confirmed maintainer's valid active
// M/m (or legacy listing) names them and their own latest announcement
// lists a confirmed maintainer back. Departed and blocked authors are never
// confirmed; invitees cannot bootstrap each other because confirmation
// always starts from the seed. Linear in the number of listings. The
// participants' flags hold the result until the next call.
func fixpoint(pop *population, seed string) (confirmed, assigned map[string]bool) {
	for _, n := range pop.all {
		n.confirmed, n.assigned, n.listsConfirmed = false, false, false
	}
	root := pop.parts[seed]
	if seed == "" || !root.eligible() {
		return map[string]bool{}, map[string]bool{}
	}
	var order []*participant
	confirm := func(p *participant) {
		p.confirmed = true
		order = append(order, p)
	}
	confirm(root)
	for i := 0; i < len(order); i++ {
		x := order[i]
		for _, s := range x.out {
			s.assigned = true
			if !s.confirmed && s.listsConfirmed && s.eligible() {
				confirm(s)
			}
		}
		for _, t := range x.in {
			t.listsConfirmed = true
			if !t.confirmed && t.assigned {
				confirm(t)
			}
		}
	}
	confirmed = make(map[string]bool, len(order))
	assigned = map[string]bool{}
	for _, p := range order {
		confirmed[p.key] = true
		for _, s := range p.out {
			assigned[s.key] = true
		}
	}
	return confirmed, assigned
}
