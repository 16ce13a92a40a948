package discovery_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
)

// Rule (the bound prefers the configured and named relays): after the
// relays given, a write learns the selected announcement's relays, then the
// named people's announced relays, then their NIP-65 write relays, then the
// relays of everyone else reached, whatever the pubkeys' order.
func TestWriteLearnsTheSelectedAndNamedPeoplesRelaysFirst(t *testing.T) {
	home, sink := devrelay.StartN(t, 1, devrelay.Options{})[0], devrelay.StartN(t, 1, devrelay.Options{})[0]
	bob := pub(t, "bob")
	// Someone reached (Alice names him) but not named by the write, whose
	// pubkey sorts before Bob's.
	otherName, other := "", ""
	for i := 0; other == "" || other > bob; i++ {
		otherName = fmt.Sprint("other", i)
		other = pub(t, otherName)
	}
	c := graph.NewCoordinate(pub(t, "alice"), "repo")
	publish(t, home,
		announce(t, "alice", "repo", 100, nostr.Tag{"M", c.Pubkey}, nostr.Tag{"m", other}, nostr.Tag{"relays", sink.URL() + "/alice"}),
		announce(t, otherName, "repo", 100, nostr.Tag{"M", c.Pubkey}, nostr.Tag{"relays", sink.URL() + "/other"}),
		announce(t, "bob", "repo", 100, nostr.Tag{"M", c.Pubkey}, nostr.Tag{"relays", sink.URL() + "/bob"}))
	list := &nostr.Event{Kind: discovery.KindRelayList, CreatedAt: 50, Tags: nostr.Tags{{"r", sink.URL() + "/bob-write"}}}
	if err := list.Sign(key("bob")); err != nil {
		t.Fatal(err)
	}
	publish(t, home, list)
	v, err := discovery.Load(context.Background(), writeSource(t, []string{home.URL()}, bob), selection(c), nil, discovery.Complete, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{sink.URL() + "/alice", sink.URL() + "/bob", sink.URL() + "/bob-write", sink.URL() + "/other"}
	var got []string
	for _, l := range v.Search.Learned {
		got = append(got, l.URL)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("learned %v, want %v", got, want)
	}
}
