package graph

import (
	"sort"

	"github.com/nbd-wtf/go-nostr"
)

// Reachable returns the authors whose events for selected's identifier can
// change Resolve rooted at selected, sorted: the selected author, the extra
// seeds (the viewer), and, transitively, every pubkey named by a role record
// (M, m or o, valid or not, active or ended) or the legacy `maintainers` tag
// in the latest announcement of an author already reached.
//
// Nothing else can matter. Resolve follows lead pointers forward from the
// selected author, confirms maintainers only by reciprocal listings from the
// lead, takes moderators, history and removal notices from what confirmed
// maintainers name, and reads only each author's latest announcement (a
// deleted latest announcement is not replaced by an older one). So an
// announcement nobody reached names, whatever it claims, changes nothing,
// and neither does its deletion or its author's state event: a reader need
// not ask for them. Same-identifier announcements from unrelated keys
// (spam) cost a parse and nothing more.
func Reachable(events []*nostr.Event, selected Coordinate, seeds ...string) []string {
	var anns []*nostr.Event
	for _, e := range events {
		if e != nil && e.Kind == KindAnnouncement && e.Tags.GetD() == selected.Identifier {
			anns = append(anns, e)
		}
	}
	latest := Latest(anns)
	reached := map[string]bool{}
	var queue []string
	reach := func(pk string) {
		if isLowerHex64(pk) && !reached[pk] {
			reached[pk] = true
			queue = append(queue, pk)
		}
	}
	reach(selected.Pubkey)
	for _, s := range seeds {
		reach(s)
	}
	for i := 0; i < len(queue); i++ {
		e := latest[queue[i]]
		if e == nil {
			continue
		}
		a, err := ParseAnnouncement(e)
		if err != nil {
			continue
		}
		for _, r := range a.Roles {
			if len(r.Raw) >= 2 {
				reach(r.Raw[1])
			}
		}
		for _, v := range a.Legacy {
			reach(v)
		}
	}
	sort.Strings(queue)
	return queue
}
