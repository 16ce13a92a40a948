package graph

import "github.com/nbd-wtf/go-nostr"

// SelectState picks the resolved kind 30618 event: the newest (NIP-01
// order, lowest id on ties) latest-per-author state from a confirmed
// maintainer of r, skipping a latest state its author deleted (the NIP-09
// rule of deletionOf, by `e` id or by the state's `a` address). A deleted
// latest state is not replaced by an older one of the same author. State
// from anyone outside the confirmed component is never authoritative. Nil
// when no confirmed maintainer's state remains.
func SelectState(events []*nostr.Event, r *Resolution) *nostr.Event {
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
		if e.Kind != KindState || !r.Confirmed(e.PubKey) {
			continue
		}
		if cur, ok := latest[e.PubKey]; !ok || Newer(e, cur) {
			latest[e.PubKey] = e
		}
	}
	var best *nostr.Event
	for author, e := range latest {
		addr := Coordinate{Kind: KindState, Pubkey: author, Identifier: e.Tags.GetD()}.ATag()
		if _, deleted := deletionOf(e, dels, addr); deleted {
			continue
		}
		if best == nil || Newer(e, best) {
			best = e
		}
	}
	return best
}
