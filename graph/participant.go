package graph

import "slices"

// participant is one pubkey in the graph: an author with a latest
// announcement, or a stub (ann == nil) that is only named by others.
// Listings are resolved to pointers once, so the fixpoint, effective starts
// and history walk follow pointers instead of hashing 64-character keys.
type participant struct {
	key      string
	ann      *Announcement
	out      []*participant // resolved listings
	outStart []int64        // earliest start of each listing (0 = unknown)
	in       []*participant // eligible authors listing this pubkey
	// roleNodes[i] is the subject of ann.Roles[i] when that record is valid.
	roleNodes []*participant
	selfStart int64 // start of the current continuous self M/m (see selfStart)
	hasSelf   bool

	// Per-resolution state, each reset by the pass that writes it: the
	// three flags by fixpoint, effAssign and leadListed by
	// effectiveStarts, histDist by historySources.
	confirmed, assigned, listsConfirmed bool
	effAssign                           int64 // assignment an effective start is measured from; -1 none
	leadListed                          bool  // the explicit lead's active roster lists this pubkey
	histDist                            int32 // history-source distance; -1 not a source

	// listings are the author's current maintainer listings of others:
	// valid active M/m subjects, or legacy `maintainers` values.
	listings []string
	// departed: a valid numeric self-role end with no active self M/m.
	// It vetoes every assignment of the author.
	departed bool
	// blocked: an unsuperseded self-defer, or self-records that are
	// exclusively unparseable. Not a departure, but no authority either.
	blocked bool
}

// eligible reports whether the author can be confirmed or seed a fixpoint.
func (p *participant) eligible() bool {
	return p != nil && p.ann != nil && !p.departed && !p.blocked
}

// population holds every participant of one resolution.
type population struct {
	parts map[string]*participant // authors with a latest announcement
	nodes map[string]*participant // every pubkey, stubs included
	all   []*participant          // every node; no order (results never depend on it)
}

func newPopulation(anns map[string]*Announcement) *population {
	pop := &population{parts: make(map[string]*participant, len(anns)), nodes: make(map[string]*participant, len(anns))}
	for k, a := range anns {
		p := analyze(a)
		p.key = k
		pop.parts[k], pop.nodes[k] = p, p
	}
	node := func(k string) *participant {
		n, ok := pop.nodes[k]
		if !ok {
			n = &participant{key: k}
			pop.nodes[k] = n
		}
		return n
	}
	for _, p := range pop.parts {
		p.roleNodes = make([]*participant, len(p.ann.Roles))
		for i, r := range p.ann.Roles {
			if r.Valid {
				p.roleNodes[i] = node(r.Subject)
			}
		}
		p.out = make([]*participant, len(p.listings))
		for i, l := range p.listings {
			p.out[i] = node(l)
		}
	}
	pop.all = make([]*participant, 0, len(pop.nodes))
	for _, n := range pop.nodes {
		pop.all = append(pop.all, n)
	}
	for _, p := range pop.all {
		if p.eligible() {
			for _, q := range p.out {
				q.in = append(q.in, p)
			}
		}
	}
	return pop
}

// shortScan is the list length up to which a nested linear scan beats
// building a map or sorting: most announcements list a handful of people,
// and only a lead's roster grows past it. The three checks that switch on
// it (listing dedupe, projection, duplicate records) give the same answer
// either way.
const shortScan = 16

func analyze(a *Announcement) *participant {
	p := &participant{ann: a}
	p.selfStart, p.hasSelf = selfStart(a)
	if !a.RoleAware() {
		if a.HasLegacyTag {
			p.listings = a.LegacyListings()
			p.outStart = make([]int64, len(p.listings)) // legacy starts are unknown
		}
		return p
	}
	// Most announcements list a handful of people; only a lead's roster is
	// long enough for a set to beat a scan.
	var seen map[string]int
	if len(a.Roles) > shortScan {
		seen = make(map[string]int, len(a.Roles))
	}
	var activeSelfMaint, endedSelfMaint bool
	for _, r := range a.Roles {
		if r.Letter == RoleModerator || !r.Valid {
			continue
		}
		if r.Subject == a.Author {
			if r.Active() {
				activeSelfMaint = true
			} else if r.NumericallyEnded() {
				endedSelfMaint = true
			}
			continue
		}
		if !r.Active() {
			continue
		}
		at := -1
		if seen != nil {
			if i, ok := seen[r.Subject]; ok {
				at = i
			} else {
				seen[r.Subject] = len(p.listings)
			}
		} else {
			at = slices.Index(p.listings, r.Subject)
		}
		if at >= 0 {
			p.outStart[at] = min(p.outStart[at], r.LastStart())
			continue
		}
		p.listings = append(p.listings, r.Subject)
		p.outStart = append(p.outStart, r.LastStart())
	}
	p.departed = endedSelfMaint && !activeSelfMaint
	p.blocked = a.SelfBlocked()
	return p
}
