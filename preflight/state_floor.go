package preflight

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// stateFloor is the earliest created_at a state event the change publishes
// may carry (the --force replacement, the removal handoff): one second
// after every kind 30618 event the preview used, eligible or not ("orders
// after every candidate state event used by the preview"), and after the
// runner's own deletion requests addressing their state coordinate, so the
// new event is not covered by one. blocker is the newest such event dated
// so far ahead of now that ours would be dated MaxFutureSkew or more after
// the clock (the int64 maximum, after which nothing can be ordered,
// included).
func stateFloor(events []*nostr.Event, author, identifier string, now int64) (floor int64, blocker string) {
	var blockedAt int64
	addr := graph.Coordinate{Kind: graph.KindState, Pubkey: author, Identifier: identifier}.ATag()
	for _, e := range events {
		candidate := e.Kind == graph.KindState
		ownDeletion := e.Kind == nostr.KindDeletion && e.PubKey == author && deletesAddress(e, addr)
		if !candidate && !ownDeletion {
			continue
		}
		if tooFarAhead(int64(e.CreatedAt), now) {
			if blocker == "" || int64(e.CreatedAt) > blockedAt {
				blocker, blockedAt = e.ID, int64(e.CreatedAt)
			}
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
