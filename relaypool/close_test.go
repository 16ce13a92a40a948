package relaypool_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

// Rule (Pool.Close): close every connection when done; no goroutine or socket
// leaks.
func TestCloseLeavesNoGoroutinesOrRelayConnections(t *testing.T) {
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	relays[2].SetSilent(true)
	urls := devrelay.URLs(relays)
	// Let the relays' own goroutines settle before the baseline.
	runtime.GC()
	before := runtime.NumGoroutine()

	p := relaypool.New(relaypool.Options{Timeout: 200 * time.Millisecond})
	p.Fetch(context.Background(), urls, nostr.Filter{Kinds: []int{1}})
	p.Publish(context.Background(), urls[:2], signed(t, "alice", 1, 100, "x"))
	if _, err := p.RelayInfo(context.Background(), urls[0]); err != nil {
		t.Fatal(err)
	}
	for i, r := range relays {
		if r.Connections() != 1 {
			t.Fatalf("relay %d has %d connections while the pool is open, want 1 (reused)", i, r.Connections())
		}
	}
	p.Close()

	eventually(t, 60*time.Second, "relay-side connections to close", func() bool {
		return relays[0].Connections()+relays[1].Connections()+relays[2].Connections() == 0
	})
	// Deadlines are generous: under -race on a loaded 2-core machine a
	// websocket close handshake took over 20 s once; a pass costs
	// milliseconds.
	deadline := time.Now().Add(60 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		extra := runtime.NumGoroutine() - before
		if extra <= 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines more than before the pool was used:\n%s", extra, stacks)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Public relays cap concurrent subscriptions per connection, and the pool
// keeps connections open across rounds: every REQ must be CLOSEd once answered.
func TestFetchClosesEachSubscriptionOnceAnswered(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	relays[1].SetSilent(true)
	p := relaypool.New(relaypool.Options{Timeout: 200 * time.Millisecond})
	defer p.Close()
	for i := 0; i < 3; i++ {
		p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{1}})
	}
	eventually(t, 20*time.Second, "every subscription to be closed", func() bool {
		return relays[0].OpenSubscriptions() == 0 && relays[1].OpenSubscriptions() == 0
	})
	if relays[0].Connections() != 1 {
		t.Fatalf("%d connections, want the one reused connection", relays[0].Connections())
	}
}
