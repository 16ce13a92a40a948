package discovery_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// capped100 cuts each filter's answer at 100 events, newest first (some
// relays cap that low), and adds 150 strangers' same-identifier
// announcements newer than anything seeded.
var capped100 = devrelay.Misbehaviour{CapPerFilter: 100, Strangers: func(f nostr.Filter) devrelay.Strangers {
	return devrelay.Strangers{Kind: graph.KindAnnouncement, Count: 150, Newest: 900}
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

// patient is source with room for the relay to sign its strangers' events
// under -race on a busy machine.
func patient(relays ...string) discovery.Source {
	return discovery.Source{Relays: relays, Pool: func() *relaypool.Pool { return relaypool.New(relaypool.Options{Timeout: 60 * time.Second}) }}
}

// Rule (a capped relay is asked by author, round by round, within a
// bound): behind 150 newer strangers' announcements on a relay that cuts
// each answer at 100, authors reached through four steps of role records
// are all found, one round per step; a chain longer than
// discovery.MaxAuthorRounds steps leaves the read incomplete, never
// complete without them.
func TestACappedRelayIsAskedByAuthorRoundByRoundWithinTheBound(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{Misbehave: capped100})[0]
	c := chain(t, r, 5)
	v, err := discovery.Load(context.Background(), patient(r.URL()), selection(c), nil, discovery.Partial, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Complete() || len(v.Events) != 5 || r.ReqCount() != 5 {
		t.Fatalf("complete %v, %d events, %d REQs; want complete, the 5 announcements, 1 + 4 rounds", v.Complete(), len(v.Events), r.ReqCount())
	}

	long := devrelay.StartN(t, 1, devrelay.Options{Misbehave: capped100})[0]
	c = chain(t, long, discovery.MaxAuthorRounds+2)
	_, err = discovery.Load(context.Background(), patient(long.URL()), selection(c), nil, discovery.Complete, "", 1000)
	var inc *discovery.Incomplete
	if !errors.As(err, &inc) {
		t.Fatalf("err %v, want *Incomplete past %d rounds", err, discovery.MaxAuthorRounds)
	}
	if r := inc.View.Fetch.Relays[0]; r.Status != relaypool.StatusFailed || !strings.Contains(r.Reason, "capped") {
		t.Errorf("relay report %+v, want failed saying its answers are capped", r)
	}
	if n := long.ReqCount(); n != 1+discovery.MaxAuthorRounds {
		t.Fatalf("%d REQs, want %d", n, 1+discovery.MaxAuthorRounds)
	}
}
