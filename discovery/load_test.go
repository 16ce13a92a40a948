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
