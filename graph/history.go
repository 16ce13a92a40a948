package graph

import (
	"slices"
	"strings"
)

// HistoryEntry is the resolved effective history of one subject in one
// role, chosen by the spec's precedence: the selected maintainer's record,
// else the record at the shortest confirmed-graph distance, ties broken by
// lowest author pubkey. Every other valid copy stays visible in Copies;
// Conflict says whether any of them disagrees with the chosen one.
type HistoryEntry struct {
	Pubkey    string        `json:"pubkey"`
	Role      string        `json:"role"` // "M", "m" or "o"
	Source    string        `json:"source"`
	Intervals []Interval    `json:"intervals"`
	Copies    []HistoryCopy `json:"copies"`
	Conflict  bool          `json:"conflict"`
}

// HistoryCopy is one author's record for the entry's subject and role.
type HistoryCopy struct {
	Author string   `json:"author"`
	Tag    []string `json:"tag"`
}

// historySources orders the authors whose records may supply history:
// the selected maintainer first, then by undirected listing distance from
// the selected maintainer over the component and lead path, ties by lowest
// pubkey; unreachable sources come last by pubkey. Reads the flags of the
// last fixpoint.
func historySources(pop *population, selected string, lr leadResult) []*participant {
	const far = 1 << 30
	var nodes []*participant
	add := func(p *participant) {
		if p != nil && p.ann != nil && p.histDist == -1 {
			p.histDist = far
			nodes = append(nodes, p)
		}
	}
	for _, p := range pop.all {
		p.histDist = -1
	}
	add(pop.parts[selected])
	for _, k := range lr.path {
		add(pop.parts[k])
	}
	for _, p := range pop.all {
		if p.confirmed {
			add(p)
		}
	}
	// Undirected adjacency over source nodes only.
	adj := make(map[*participant][]*participant, len(nodes))
	for _, p := range nodes {
		for _, q := range p.out {
			if q.histDist != -1 {
				adj[p] = append(adj[p], q)
				adj[q] = append(adj[q], p)
			}
		}
	}
	if root := pop.parts[selected]; root != nil {
		root.histDist = 0
		queue := []*participant{root}
		for i := 0; i < len(queue); i++ {
			x := queue[i]
			for _, y := range adj[x] {
				if y.histDist == far {
					y.histDist = x.histDist + 1
					queue = append(queue, y)
				}
			}
		}
	}
	slices.SortFunc(nodes, func(a, b *participant) int {
		if a.histDist != b.histDist {
			return int(a.histDist - b.histDist)
		}
		return strings.Compare(a.key, b.key)
	})
	return nodes
}

type nodeKey struct {
	subject *participant
	letter  byte
}

func resolveHistory(pop *population, s *snapshot, selected string, lr leadResult) []HistoryEntry {
	sources := historySources(pop, selected, lr)
	type building struct {
		subject *participant
		entry   HistoryEntry
		chosen  *RoleRecord
	}
	records := 0
	for _, src := range sources {
		records += len(src.ann.Roles)
	}
	built := make([]building, 0, records)
	at := make(map[nodeKey]int32, records)
	// One allocation each for every entry's first copies and intervals;
	// an entry that outgrows its slot reallocates on its own.
	copySlab := make([]HistoryCopy, 2*records)
	ivSlab := make([]Interval, 0, records)
	for _, src := range sources {
		author := src.key
		for i := range src.ann.Roles {
			rec := &src.ann.Roles[i]
			if !rec.Valid {
				continue // malformed and self-defer records carry no history
			}
			k := nodeKey{src.roleNodes[i], rec.Letter}
			j, ok := at[k]
			if !ok {
				j = int32(len(built))
				at[k] = j
				if cap(ivSlab)-len(ivSlab) < len(rec.Boundaries)/2+1 {
					ivSlab = make([]Interval, 0, max(64, len(rec.Boundaries)/2+1))
				}
				n := len(ivSlab)
				ivSlab = rec.appendIntervals(ivSlab)
				built = append(built, building{subject: k.subject, chosen: rec,
					entry: HistoryEntry{Pubkey: rec.Subject, Role: roleNames[rec.Letter], Source: author,
						Intervals: ivSlab[n:len(ivSlab):len(ivSlab)], Copies: copySlab[2*j : 2*j : 2*j+2]}})
			} else if b := &built[j]; b.entry.Source != author && recordsDisagree(*b.chosen, *rec) {
				b.entry.Conflict = true
			}
			built[j].entry.Copies = append(built[j].entry.Copies, HistoryCopy{Author: author, Tag: rec.Raw})
		}
	}
	order := make([]int32, len(built))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		a, b := &built[x].entry, &built[y].entry
		if c := strings.Compare(a.Pubkey, b.Pubkey); c != 0 {
			return c
		}
		return strings.Compare(a.Role, b.Role)
	})
	out := make([]HistoryEntry, len(built))
	for i, o := range order {
		b := &built[o]
		if !b.subject.confirmed {
			applyDepartureEvidence(&b.entry, pop.parts, s)
		}
		out[i] = b.entry
	}
	return out
}

// applyDepartureEvidence closes a former member's open or deferred final
// interval with the strongest evidence: their own numeric self-role end for
// that letter (signed), else the created_at of the kind 5 that deleted
// their announcement (deletion), else a caller-supplied observation of
// their disappearance (estimated, and labelled so). Without any the
// interval stays as recorded.
func applyDepartureEvidence(e *HistoryEntry, parts map[string]*participant, s *snapshot) {
	if len(e.Intervals) == 0 {
		return
	}
	last := &e.Intervals[len(e.Intervals)-1]
	if last.End != EndOpen && last.End != EndDeferred {
		return
	}
	if p := parts[e.Pubkey]; p != nil {
		for _, rec := range p.ann.Roles {
			if rec.Subject == e.Pubkey && string(rec.Letter) == e.Role && rec.NumericallyEnded() {
				if end := rec.Boundaries[len(rec.Boundaries)-1]; end >= last.Start {
					last.End, last.EndTime = EndSigned, end
					return
				}
			}
		}
	} else if d, ok := s.deleted[e.Pubkey]; ok && d.Time >= last.Start {
		last.End, last.EndTime = EndDeletion, d.Time
		return
	}
	if t, ok := s.estimates[e.Pubkey]; ok && t >= last.Start {
		last.End, last.EndTime = EndEstimated, t
	}
}

// recordsDisagree compares two copies of one subject's role history: the
// starts must match (an unknown start matches any), and where both state a
// numeric end or one is still active while the other ended, they disagree.
// A defer end asserts nothing.
func recordsDisagree(a, b RoleRecord) bool {
	starts := func(r RoleRecord) []int64 {
		var out []int64
		for i := 0; i < len(r.Boundaries); i += 2 {
			out = append(out, r.Boundaries[i])
		}
		return out
	}
	// An untimed record says the start is unknown, which contradicts no
	// signed start; so does a 0 start (a closed untimed record, [0, T]).
	if a.Untimed() || b.Untimed() {
		return false
	}
	sa, sb := starts(a), starts(b)
	if len(sa) != len(sb) {
		return true
	}
	for i := range sa {
		if sa[i] != sb[i] && sa[i] != 0 && sb[i] != 0 {
			return true
		}
	}
	ia, ib := a.Intervals(), b.Intervals()
	for i := range ia {
		if i >= len(ib) {
			return true
		}
		x, y := ia[i], ib[i]
		if x.End == EndDeferred || y.End == EndDeferred {
			continue
		}
		if x.End != y.End || x.EndTime != y.EndTime {
			return true
		}
	}
	return false
}

// indexHistory maps each pubkey to its entries' range in the sorted history.
func indexHistory(h []HistoryEntry) map[string][2]int {
	out := map[string][2]int{}
	for i := 0; i < len(h); {
		j := i
		for j < len(h) && h[j].Pubkey == h[i].Pubkey {
			j++
		}
		out[h[i].Pubkey] = [2]int{i, j}
		i = j
	}
	return out
}

var roleNames = map[byte]string{RoleLead: "M", RoleMaint: "m", RoleModerator: "o"}
