package discovery_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/testkeys"
)

func key(name string) string { return testkeys.Named("discovery-test-", name) }

func pub(t testing.TB, name string) string { return testkeys.Pub(t, key(name)) }

func announce(t testing.TB, name, identifier string, at int64, tags ...nostr.Tag) *nostr.Event {
	return testkeys.Event(t, key(name), graph.KindAnnouncement, at, "", append([]nostr.Tag{{"d", identifier}}, tags...)...)
}

func publish(t testing.TB, r *devrelay.Relay, evs ...*nostr.Event) {
	t.Helper()
	for _, e := range evs {
		if err := r.Publish(e); err != nil {
			t.Fatal(err)
		}
	}
}

func source(relays ...string) discovery.Source {
	return discovery.Source{Relays: relays, Pool: func() *relaypool.Pool { return relaypool.New(relaypool.Options{Timeout: 5 * time.Second}) }}
}

func selection(c graph.Coordinate) gitstate.Selection { return gitstate.Selection{Coordinate: c} }

// manyRelays lists n distinct relay URLs that all reach r (devrelay serves
// websockets on any path), so every dial is counted by r.
func manyRelays(r *devrelay.Relay, n int) nostr.Tag {
	tag := nostr.Tag{"relays"}
	for i := 0; i < n; i++ {
		tag = append(tag, fmt.Sprintf("%s/r%04d", r.URL(), i))
	}
	return tag
}

// Rule (bounded announced relays): only the first MaxAnnouncedRelays
// distinct entries of the `relays` tags count, in tag order after
// normalization; the relays already asked are not repeated.
func TestAnnouncedRelaysAreTheFirst32InTagOrder(t *testing.T) {
	sink := devrelay.StartN(t, 1, devrelay.Options{})[0]
	tag := manyRelays(sink, 6000)
	c := graph.NewCoordinate(pub(t, "alice"), "repo")
	ann := announce(t, "alice", "repo", 100, append(nostr.Tag{"relays", tag[1] + "/", tag[1]}, tag[2:]...))
	got := discovery.NewAnnouncedRelays([]*nostr.Event{ann}, c, []string{tag[2]})
	if len(got) != discovery.MaxAnnouncedRelays-1 {
		t.Fatalf("%d relays, want %d (the first %d distinct, less the one already asked)", len(got), discovery.MaxAnnouncedRelays-1, discovery.MaxAnnouncedRelays)
	}
	if got[0] != tag[1] || got[1] != tag[3] || got[len(got)-1] != tag[discovery.MaxAnnouncedRelays] {
		t.Fatalf("relays %v… %v, want tag order from %s", got[:2], got[len(got)-1], tag[1])
	}
}

// Rule (bounded announced relays): reading a repository whose announcement
// lists 6,000 relays asks at most MaxAnnouncedRelays of them, the user's
// relay still answers, and the read's memory stays small.
func TestReadOfAnAnnouncementListing6000RelaysAsksAtMostTheBound(t *testing.T) {
	home := devrelay.StartN(t, 1, devrelay.Options{})[0]
	sink := devrelay.StartN(t, 1, devrelay.Options{})[0]
	c := graph.NewCoordinate(pub(t, "alice"), "repo")
	publish(t, home, announce(t, "alice", "repo", 100, nostr.Tag{"M", c.Pubkey}, manyRelays(sink, 6000)))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, err := discovery.Load(context.Background(), source(home.URL()), selection(c), nil, discovery.Complete, "", 1000)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(v.Relays); n != 1+discovery.MaxAnnouncedRelays {
		t.Errorf("%d relays asked, want the user's one plus %d announced", n, discovery.MaxAnnouncedRelays)
	}
	// One discovery round and one deletion round per announced relay.
	if n := sink.ReqCount(); n > 2*discovery.MaxAnnouncedRelays {
		t.Errorf("the announced relays got %d REQs, want at most %d", n, 2*discovery.MaxAnnouncedRelays)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("the read allocated %d MiB, want under 64", alloc>>20)
	}
}

// Rule (spam resistance): thousands of valid same-identifier announcements
// from unrelated keys do not make the complete read's deletion round grow:
// it asks only about the authors who can change the resolution, so the
// relay (which resets connections sending messages over 512,000 bytes)
// answers, and the read is complete with the spam parsed and ignored.
func TestSybilAnnouncementsDoNotGrowTheDeletionRound(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{})[0]
	c := graph.NewCoordinate(pub(t, "alice"), "repo")
	publish(t, r,
		announce(t, "alice", "repo", 100, nostr.Tag{"M", c.Pubkey}, nostr.Tag{"m", pub(t, "bob"), "90"}),
		announce(t, "bob", "repo", 110, nostr.Tag{"M", c.Pubkey, "90"}, nostr.Tag{"m", pub(t, "bob"), "90"}))
	for _, e := range testkeys.Sybils(t, "repo", 10_000) {
		r.Inject(e)
	}
	var pool *relaypool.Pool
	src := source(r.URL())
	src.Pool = func() *relaypool.Pool {
		pool = relaypool.New(relaypool.Options{Timeout: 10 * time.Second})
		return pool
	}
	v, err := discovery.Load(context.Background(), src, selection(c), nil, discovery.Complete, "", 1000)
	if err != nil {
		t.Fatalf("complete read with 10,000 sybils: %v (%+v)", err, reports(err))
	}
	if got := v.Resolution.Component; len(got) != 2 {
		t.Errorf("component %v, want alice and bob", got)
	}
	// The spam costs an id hash each, never a signature check.
	if n := pool.SignatureChecks(); n != 2 {
		t.Errorf("%d signature checks, want 2 (alice's and bob's announcements)", n)
	}
	if len(v.Events) != 2 {
		t.Errorf("%d events resolved, want 2: the spam is not used", len(v.Events))
	}
}

func reports(err error) []relaypool.RelayReport {
	if inc, ok := err.(*discovery.Incomplete); ok && inc.View.Fetch != nil {
		return inc.View.Fetch.Relays
	}
	return nil
}
