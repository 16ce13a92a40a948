package graph

import (
	"slices"
	"sort"
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
	in := map[string]bool{}
	for p := range confirmed {
		in[p] = true
	}
	for _, p := range lr.path {
		if parts[p] != nil {
			in[p] = true
		}
	}
	if parts[selected] != nil {
		in[selected] = true
	}
	adj := map[string][]string{}
	for p := range in {
		for _, q := range parts[p].listings {
			if in[q] {
				adj[p] = append(adj[p], q)
				adj[q] = append(adj[q], p)
			}
		}
	}
	dist := map[string]int{}
	if in[selected] {
		dist[selected] = 0
		queue := []string{selected}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, y := range adj[x] {
				if _, seen := dist[y]; !seen {
					dist[y] = dist[x] + 1
					queue = append(queue, y)
				}
			}
		}
	}
	out := make([]string, 0, len(in))
	for p := range in {
		out = append(out, p)
	}
	const far = 1 << 30
	d := func(p string) int {
		if v, ok := dist[p]; ok {
			return v
		}
		return far
	}
	sort.Slice(out, func(i, j int) bool {
		if d(out[i]) != d(out[j]) {
			return d(out[i]) < d(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

type historyKey struct {
	subject string
	letter  byte
}

func resolveHistory(parts map[string]*participant, s *snapshot, selected string, lr leadResult, confirmed map[string]bool) []HistoryEntry {
	sources := historySources(parts, selected, lr, confirmed)
	entries := map[historyKey]*HistoryEntry{}
	chosen := map[historyKey]RoleRecord{}
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
			e.Copies = append(e.Copies, HistoryCopy{Author: author, Tag: []string(copyTag(rec.Raw))})
		}
	}
	out := make([]HistoryEntry, 0, len(keys))
	for _, k := range keys {
		e := entries[k]
		if !confirmed[e.Pubkey] {
			applyDepartureEvidence(e, parts, s)
		}
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pubkey != out[j].Pubkey {
			return out[i].Pubkey < out[j].Pubkey
		}
		return out[i].Role < out[j].Role
	})
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
