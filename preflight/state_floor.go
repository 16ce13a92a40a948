package preflight

import (
	"math"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// stateFloor is the earliest created_at a state event the change publishes
// may carry (the --force replacement, the removal handoff): one second
// after every kind 30618 event the preview used, eligible or not ("orders
// after every candidate state event used by the preview"), and after the
// runner's own deletion requests addressing their state coordinate, so the
// new event is not covered by one. blocker is such an event dated at the
// int64 maximum, after which nothing can be ordered.
func stateFloor(events []*nostr.Event, author, identifier string) (floor int64, blocker string) {
	addr := graph.Coordinate{Kind: graph.KindState, Pubkey: author, Identifier: identifier}.ATag()
	for _, e := range events {
		candidate := e.Kind == graph.KindState
		ownDeletion := e.Kind == nostr.KindDeletion && e.PubKey == author && deletesAddress(e, addr)
		if !candidate && !ownDeletion {
			continue
		}
		if int64(e.CreatedAt) == math.MaxInt64 {
			blocker = e.ID
			continue
		}
		floor = max(floor, int64(e.CreatedAt)+1)
	}
	return floor, blocker
}

func deletesAddress(e *nostr.Event, addr string) bool {
	for _, t := range e.Tags {
		if len(t) >= 2 && t[0] == "a" && t[1] == addr {
			return true
		}
	}
	return false
}
