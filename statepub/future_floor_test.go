package statepub

import (
	"math"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
)

// Rule (never date a state 15 minutes or more after the clock): the
// author's own state dated int64 max − 2, or 20 minutes ahead, blocks the
// publication (base-in-the-future) instead of dating the new state after
// it; one 10 minutes ahead is followed one second after it.
func TestAStateIsNeverDatedFarAfterTheClock(t *testing.T) {
	sk := nostr.GeneratePrivateKey()
	pk, _ := nostr.GetPublicKey(sk)
	const now = 1_700_000_000
	view := func(at int64) (*discovery.View, *nostr.Event) {
		e := &nostr.Event{Kind: graph.KindState, CreatedAt: nostr.Timestamp(at), Tags: nostr.Tags{{"d", "repo"}}}
		if err := e.Sign(sk); err != nil {
			t.Fatal(err)
		}
		return &discovery.View{Events: []*nostr.Event{e}, Resolution: &graph.Resolution{}}, e
	}
	for _, at := range []int64{math.MaxInt64 - 2, now + 20*60, math.MaxInt64} {
		v, e := view(at)
		if _, blocker := notBefore(v, pk, now); blocker == nil || blocker.ID != e.ID {
			t.Errorf("state at %d: blocker %v, want the state", at, blocker)
		}
	}
	v, _ := view(now + 10*60)
	if floor, blocker := notBefore(v, pk, now); blocker != nil || floor != now+10*60+1 {
		t.Fatalf("floor %d blocker %v", floor, blocker)
	}
	if preflight.MaxFutureSkew != 15*60 {
		t.Fatalf("MaxFutureSkew %d", preflight.MaxFutureSkew)
	}
}
