package discovery

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// SelectState picks the resolved kind 30618 event: the newest (NIP-01
// order, lowest id on ties) latest-per-author state from a confirmed
// maintainer, skipping events their author deleted. State from anyone
// outside the confirmed component is never authoritative.
func SelectState(events []*nostr.Event, r *graph.Resolution) *nostr.Event {
	latest := map[string]*nostr.Event{}
	for _, e := range events {
		if e.Kind != graph.KindState || !r.Confirmed(e.PubKey) {
			continue
		}
		if cur, ok := latest[e.PubKey]; !ok || graph.Newer(e, cur) {
			latest[e.PubKey] = e
		}
	}
	var best *nostr.Event
	for _, e := range latest {
		if stateDeleted(e, events) {
			continue
		}
		if best == nil || graph.Newer(e, best) {
			best = e
		}
	}
	return best
}

// stateDeleted: a same-author kind 5 names the event's id, or its address
// with created_at at or after the event's (NIP-09).
func stateDeleted(e *nostr.Event, events []*nostr.Event) bool {
	addr := graph.Coordinate{Kind: graph.KindState, Pubkey: e.PubKey, Identifier: e.Tags.GetD()}.ATag()
	for _, d := range events {
		if d.Kind != graph.KindDeletion || d.PubKey != e.PubKey {
			continue
		}
		for _, t := range d.Tags {
			if len(t) >= 2 && (t[0] == "e" && t[1] == e.ID || t[0] == "a" && t[1] == addr && d.CreatedAt >= e.CreatedAt) {
				return true
			}
		}
	}
	return false
}
