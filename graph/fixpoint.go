package graph

import "sort"

// Component is the reciprocal fixpoint grown from one seed: the virtual
// repository for one identifier and one selected coordinate.
type Component struct {
	Seed      string   `json:"seed"`
	Confirmed []string `json:"confirmed"` // sorted
	Invited   []string `json:"invited"`   // listed by a confirmed maintainer, not confirmed; sorted
}

// Reciprocal computes the confirmed component seeded by seed over the given
// latest announcements (author -> announcement). The write side uses it to
// simulate before/after graphs without re-implementing the rules.
func Reciprocal(anns map[string]*Announcement, seed string) Component {
	parts := make(map[string]*participant, len(anns))
	for k, a := range anns {
		parts[k] = analyze(a)
	}
	confirmed, assigned := fixpoint(parts, seed)
	return componentOf(seed, confirmed, assigned)
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
// always starts from the seed. Linear in the number of listings.
func fixpoint(parts map[string]*participant, seed string) (confirmed, assigned map[string]bool) {
	confirmed, assigned = map[string]bool{}, map[string]bool{}
	if seed == "" || !parts[seed].eligible() {
		return confirmed, assigned
	}
	listedBy := map[string][]string{}
	for author, p := range parts {
		if !p.eligible() {
			continue
		}
		for _, s := range p.listings {
			listedBy[s] = append(listedBy[s], author)
		}
	}
	listsConfirmed := map[string]bool{}
	queue := []string{seed}
	confirmed[seed] = true
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, s := range parts[x].listings {
			assigned[s] = true
			if !confirmed[s] && listsConfirmed[s] && parts[s].eligible() {
				confirmed[s] = true
				queue = append(queue, s)
			}
		}
		for _, t := range listedBy[x] {
			listsConfirmed[t] = true
			if !confirmed[t] && assigned[t] {
				confirmed[t] = true
				queue = append(queue, t)
			}
		}
	}
	return confirmed, assigned
}
