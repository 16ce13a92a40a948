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

// HistoryView computes the resolved history for the selected maintainer
// over the given latest announcements, using the component the lead walk
// and reciprocal fixpoint produce. The write side uses it to build
// follow-lead and acknowledgement replacements.
func HistoryView(anns map[string]*Announcement, selected string) []HistoryEntry {
	s := &snapshot{anns: anns, lastSeen: anns, deleted: map[string]Deletion{}}
	parts := make(map[string]*participant, len(anns))
	for k, a := range anns {
		parts[k] = analyze(a)
	}
	lr := walkLead(parts, s, selected)
	confirmed, _ := fixpoint(parts, lr.seed)
	return resolveHistory(parts, s, selected, lr, confirmed)
}

// historySources orders the authors whose records may supply history:
// the selected maintainer first, then by undirected listing distance from
// the selected maintainer over the component and lead path, ties by lowest
// pubkey; unreachable sources come last by pubkey.
func historySources(parts map[string]*participant, selected string, lr leadResult, confirmed map[string]bool) []string {
	nodes := make([]string, 0, len(confirmed)+len(lr.path)+1)
	id := make(map[string]int32, cap(nodes))
	add := func(p string) {
		if _, ok := id[p]; !ok && parts[p] != nil {
			id[p] = int32(len(nodes))
			nodes = append(nodes, p)
		}
	}
	add(selected)
	for _, p := range lr.path {
		add(p)
	}
	for p := range confirmed {
		add(p)
	}
	adj := make([][]int32, len(nodes))
	for i, p := range nodes {
		for _, q := range parts[p].listings {
			if j, ok := id[q]; ok {
				adj[i] = append(adj[i], j)
				adj[j] = append(adj[j], int32(i))
			}
		}
	}
	const far = 1 << 30
	dist := make([]int32, len(nodes))
	for i := range dist {
		dist[i] = far
	}
	if j, ok := id[selected]; ok {
		dist[j] = 0
		queue := []int32{j}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, y := range adj[x] {
				if dist[y] == far {
					dist[y] = dist[x] + 1
					queue = append(queue, y)
				}
			}
		}
	}
	order := make([]int32, len(nodes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if dist[a] != dist[b] {
			return int(dist[a] - dist[b])
		}
		return strings.Compare(nodes[a], nodes[b])
	})
	out := make([]string, len(order))
	for i, o := range order {
		out[i] = nodes[o]
	}
	return out
}

type historyKey struct {
	subject string
	letter  byte
}

func resolveHistory(parts map[string]*participant, s *snapshot, selected string, lr leadResult, confirmed map[string]bool) []HistoryEntry {
	sources := historySources(parts, selected, lr, confirmed)
	entries := make(map[historyKey]*HistoryEntry, 2*len(sources))
	chosen := make(map[historyKey]RoleRecord, 2*len(sources))
	var keys []historyKey
	for _, author := range sources {
		for _, rec := range parts[author].ann.Roles {
			if !rec.Valid {
				continue // malformed and self-defer records carry no history
			}
			k := historyKey{rec.Subject, rec.Letter}
			e, ok := entries[k]
			if !ok {
				e = &HistoryEntry{Pubkey: rec.Subject, Role: string(rec.Letter), Source: author, Intervals: rec.Intervals()}
				entries[k], chosen[k] = e, rec
				keys = append(keys, k)
			} else if e.Source != author && recordsDisagree(chosen[k], rec) {
				e.Conflict = true
			}
			e.Copies = append(e.Copies, HistoryCopy{Author: author, Tag: rec.Raw})
		}
	}
	slices.SortFunc(keys, func(a, b historyKey) int {
		if c := strings.Compare(a.subject, b.subject); c != 0 {
			return c
		}
		return int(a.letter) - int(b.letter)
	})
	out := make([]HistoryEntry, 0, len(keys))
	for _, k := range keys {
		e := entries[k]
		if !confirmed[e.Pubkey] {
			applyDepartureEvidence(e, parts, s)
		}
		out = append(out, *e)
	}
	return out
}

// applyDepartureEvidence closes a former member's open or deferred final
// interval with the strongest signed evidence: their own numeric self-role
// end for that letter, else the created_at of the kind 5 that deleted their
// announcement. Without either the interval stays as recorded.
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
				end := rec.Boundaries[len(rec.Boundaries)-1]
				if end >= last.Start {
					last.End, last.EndTime = EndSigned, end
					return
				}
			}
		}
		return
	}
	if d, ok := s.deleted[e.Pubkey]; ok && d.Time >= last.Start {
		last.End, last.EndTime = EndDeletion, d.Time
	}
}

// recordsDisagree compares two copies of one subject's role history: the
// starts must match (an unknown start matches any), and where both state a numeric end or one is still
// active while the other ended, they disagree. A defer end asserts nothing.
func recordsDisagree(a, b RoleRecord) bool {
	starts := func(r RoleRecord) []int64 {
		var out []int64
		for i := 0; i < len(r.Boundaries); i += 2 {
			out = append(out, r.Boundaries[i])
		}
		return out
	}
	// An untimed record says the start is unknown, which contradicts no
	// signed start.
	if a.Untimed() || b.Untimed() {
		return false
	}
	if !slices.Equal(starts(a), starts(b)) {
		return true
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

func indexHistory(h []HistoryEntry) map[string][]HistoryEntry {
	out := map[string][]HistoryEntry{}
	for _, e := range h {
		out[e.Pubkey] = append(out[e.Pubkey], e)
	}
	return out
}
