package discovery_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/testkeys"
)

var aliceSK = testkeys.Named("discovery-test-", "alice")

func cachedSource(t *testing.T, home string, relays ...string) discovery.Source {
	return discovery.Source{
		Relays:    relays,
		Pool:      func() *relaypool.Pool { return relaypool.New(relaypool.Options{Timeout: 2 * time.Second}) },
		OpenCache: func() (*cache.Cache, error) { return cache.Open(home) },
		Warn:      func(msg string) { t.Errorf("warning: %s", msg) },
	}
}

func aliceSelection(t *testing.T) gitstate.Selection {
	return gitstate.Selection{Coordinate: graph.NewCoordinate(testkeys.Pub(t, aliceSK), "proj")}
}

// Rule (reads show partial information, writes fail closed): a relay that
// does not answer leaves a read usable but incomplete, and is an
// *Incomplete error when complete evidence is needed; what a read verified
// is cached and answers offline, which is never complete.
func TestLoadIsCompleteOnlyWhenEveryRelayAnswered(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{})[0]
	ann := testkeys.Sign(t, aliceSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 100, Tags: nostr.Tags{{"d", "proj"}, {"name", "P"}}})
	if err := r.Publish(ann); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	ctx := context.Background()
	src := cachedSource(t, home, r.URL(), "ws://127.0.0.1:1")
	v, err := discovery.Load(ctx, src, aliceSelection(t), nil, discovery.Partial, "", 1000)
	if err != nil || v.Complete() || v.Resolution == nil || len(v.Events) != 1 || v.Answered() != 1 {
		t.Fatalf("partial read: %+v %v", v, err)
	}
	var inc *discovery.Incomplete
	if _, err := discovery.Load(ctx, src, aliceSelection(t), nil, discovery.Complete, "", 1000); !errors.As(err, &inc) {
		t.Fatalf("complete evidence with a silent relay: %v", err)
	}
	off := cachedSource(t, home)
	off.Offline = true
	v, err = discovery.Load(ctx, off, aliceSelection(t), nil, discovery.Partial, "", 1000)
	if err != nil || v.Complete() || len(v.Events) != 1 {
		t.Fatalf("offline: %+v %v", v, err)
	}
}

// Rule: nothing found on relays that answered is NotFound; no relay to ask
// is NoRelays; no relay answering is Incomplete, never "not found".
func TestLoadSaysWhyItFoundNothing(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{})[0]
	ctx := context.Background()
	var nf *discovery.NotFound
	if _, err := discovery.Load(ctx, cachedSource(t, t.TempDir(), r.URL()), aliceSelection(t), nil, discovery.Partial, "", 1000); !errors.As(err, &nf) {
		t.Fatalf("empty relay: %v", err)
	}
	var nr *discovery.NoRelays
	if _, err := discovery.Load(ctx, cachedSource(t, t.TempDir()), aliceSelection(t), nil, discovery.Partial, "", 1000); !errors.As(err, &nr) {
		t.Fatalf("no relays: %v", err)
	}
	var inc *discovery.Incomplete
	if _, err := discovery.Load(ctx, cachedSource(t, t.TempDir(), "ws://127.0.0.1:1"), aliceSelection(t), nil, discovery.Partial, "", 1000); !errors.As(err, &inc) {
		t.Fatalf("dead relay: %v", err)
	}
}

// Rule (a write's recheck and re-read cost one round): Again asks each
// relay of an earlier complete read once, and resolves what it answers
// now: a newer announcement is in the fresh view.
func TestAgainIsOneRoundAndResolvesTheFreshAnswer(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	ann := testkeys.Sign(t, aliceSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 100, Tags: nostr.Tags{{"d", "proj"}, {"name", "P"}}})
	for _, r := range relays {
		if err := r.Publish(ann); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	src := cachedSource(t, t.TempDir(), devrelay.URLs(relays)...)
	v, err := discovery.Load(ctx, src, aliceSelection(t), nil, discovery.Complete, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	reqs := relays[0].ReqCount()
	newer := testkeys.Sign(t, aliceSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 200, Tags: nostr.Tags{{"d", "proj"}, {"name", "Q"}}})
	if err := relays[1].Publish(newer); err != nil {
		t.Fatal(err)
	}
	again, err := discovery.Again(ctx, src, v, 1001)
	if err != nil {
		t.Fatal(err)
	}
	if n := relays[0].ReqCount() - reqs; n != 1 {
		t.Fatalf("Again sent %d REQs to a relay, want 1", n)
	}
	if again.Now != 1001 || again.Resolution == nil || !slicesContainsID(again.Events, newer.ID) {
		t.Fatalf("the fresh view lacks the newer announcement: %+v", again.Events)
	}
	relays[1].SetSilent(true)
	var inc *discovery.Incomplete
	if _, err := discovery.Again(ctx, discovery.Source{Pool: func() *relaypool.Pool {
		return relaypool.New(relaypool.Options{Timeout: 200 * time.Millisecond})
	}}, v, 1002); !errors.As(err, &inc) {
		t.Fatalf("a relay that does not answer again: %v, want *Incomplete", err)
	}
}

func slicesContainsID(evs []*nostr.Event, id string) bool {
	for _, e := range evs {
		if e.ID == id {
			return true
		}
	}
	return false
}
