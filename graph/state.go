package graph

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
)

// SelectState picks the resolved kind 30618 event: the newest (NIP-01
// order, lowest id on ties) of EligibleStates. State from anyone outside
// the confirmed component is never authoritative. Nil when no confirmed
// maintainer's state remains.
func SelectState(events []*nostr.Event, r *Resolution) *nostr.Event {
	var best *nostr.Event
	for _, e := range EligibleStates(events, r) {
		if best == nil || Newer(e, best) {
			best = e
		}
	}
	return best
}

// EligibleStates are the state candidates of r: each confirmed
// maintainer's latest kind 30618 event, skipping a latest state its author
// deleted (the NIP-09 rule of deletionOf, by `e` id or by the state's `a`
// address). A deleted latest state is not replaced by an older one of the
// same author. Ordered by author.
func EligibleStates(events []*nostr.Event, r *Resolution) []*nostr.Event {
	latest, dels := latestStates(events, r.Confirmed)
	out := make([]*nostr.Event, 0, len(latest))
	for _, pk := range sortedKeys(latest) {
		if e := latest[pk]; !stateDeleted(e, dels) {
			out = append(out, e)
		}
	}
	return out
}

// LatestStateBy is author's latest kind 30618 event among events, nil when
// they have none or deleted it: the state they last said their repository
// has, whether or not any resolution makes it eligible (an invitee's state
// before confirmation, which confirmation may activate).
func LatestStateBy(events []*nostr.Event, author string) *nostr.Event {
	latest, dels := latestStates(events, func(pk string) bool { return pk == author })
	e := latest[author]
	if e == nil || stateDeleted(e, dels) {
		return nil
	}
	return e
}

// latestStates is the latest state event of every author keep admits, and
// every deletion request.
func latestStates(events []*nostr.Event, keep func(string) bool) (map[string]*nostr.Event, []*nostr.Event) {
	latest := map[string]*nostr.Event{}
	var dels []*nostr.Event
	for _, e := range events {
		if e == nil {
			continue
		}
		if e.Kind == KindDeletion {
			dels = append(dels, e)
			continue
		}
		if e.Kind != KindState || !keep(e.PubKey) {
			continue
		}
		if cur, ok := latest[e.PubKey]; !ok || Newer(e, cur) {
			latest[e.PubKey] = e
		}
	}
	return latest, dels
}

func stateDeleted(e *nostr.Event, dels []*nostr.Event) bool {
	addr := Coordinate{Kind: KindState, Pubkey: e.PubKey, Identifier: e.Tags.GetD()}.ATag()
	_, deleted := deletionOf(e, dels, addr)
	return deleted
}

func sortedKeys(m map[string]*nostr.Event) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
