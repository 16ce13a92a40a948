package discovery_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
)

// capped500 cuts each filter's answer at 500 events, newest first, and adds
// 600 strangers' same-identifier announcements newer than anything seeded.
var capped500 = devrelay.Misbehaviour{CapPerFilter: 500, Strangers: func(f nostr.Filter) devrelay.Strangers {
	return devrelay.Strangers{Kind: graph.KindAnnouncement, Count: 600, Newest: 900}
}}

// chain publishes announcements p0 -> p1 -> ... -> p(n-1), each naming the
// next as a co-maintainer, and returns p0's coordinate.
func chain(t *testing.T, r *devrelay.Relay, n int) graph.Coordinate {
	for i := 0; i < n; i++ {
		tags := []nostr.Tag{}
		if i+1 < n {
			tags = append(tags, nostr.Tag{"m", pub(t, fmt.Sprint("p", i+1))})
		}
		publish(t, r, announce(t, fmt.Sprint("p", i), "repo", 100, tags...))
	}
	return graph.NewCoordinate(pub(t, "p0"), "repo")
}

// Rule (a capped relay is asked by author, round by round, within a
// bound): behind 600 newer strangers' announcements on a relay that cuts
// each answer at 500, authors reached through four steps of role records
// are all found, one round per step; a chain longer than
// discovery.MaxAuthorRounds steps leaves the read incomplete, never
// complete without them.
func TestACappedRelayIsAskedByAuthorRoundByRoundWithinTheBound(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{Misbehave: capped500})[0]
	c := chain(t, r, 5)
	v, err := discovery.Load(context.Background(), source(r.URL()), selection(c), nil, discovery.Partial, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Complete() || len(v.Events) != 5 || r.ReqCount() != 5 {
		t.Fatalf("complete %v, %d events, %d REQs; want complete, the 5 announcements, 1 + 4 rounds", v.Complete(), len(v.Events), r.ReqCount())
	}

	long := devrelay.StartN(t, 1, devrelay.Options{Misbehave: capped500})[0]
	c = chain(t, long, discovery.MaxAuthorRounds+2)
	_, err = discovery.Load(context.Background(), source(long.URL()), selection(c), nil, discovery.Complete, "", 1000)
	var inc *discovery.Incomplete
	if !errors.As(err, &inc) {
		t.Fatalf("err %v, want *Incomplete past %d rounds", err, discovery.MaxAuthorRounds)
	}
	if n := long.ReqCount(); n != 1+discovery.MaxAuthorRounds {
		t.Fatalf("%d REQs, want %d", n, 1+discovery.MaxAuthorRounds)
	}
}
