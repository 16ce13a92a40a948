package relaypool

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/relaytest"
)

// Rule (a relay costs at most one --timeout per round, and a relay that
// never completes the handshake costs one per command): the first request
// to it times out after the timeout; the pool does not dial it again, so
// the next request on the same pool (the profiles, a follow-up round) is
// reported timed out at once, and publishing to it too.
func TestARelayThatNeverCompletesTheHandshakeIsDialledOnce(t *testing.T) {
	t.Parallel()
	url := relaytest.SilentListener(t)
	const timeout = 300 * time.Millisecond
	p := New(Options{Timeout: timeout})
	defer p.Close()
	start := time.Now()
	res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{1}})
	first := time.Since(start)
	if res.Relays[0].Status != StatusTimeout || first < timeout {
		t.Fatalf("first request: %+v after %v", res.Relays[0], first)
	}
	start = time.Now()
	res = p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{0}})
	if again := time.Since(start); res.Relays[0].Status != StatusTimeout || again > timeout/3 {
		t.Fatalf("second request: %+v after %v; want a timeout at once, not another %v", res.Relays[0], again, timeout)
	}
	evt := &nostr.Event{Kind: 1, CreatedAt: nostr.Now(), Content: "x"}
	if err := evt.Sign(nostr.GeneratePrivateKey()); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if rep := p.Publish(context.Background(), []string{url}, evt); rep[0].OK || time.Since(start) > timeout/3 {
		t.Fatalf("publish: %+v after %v", rep[0], time.Since(start))
	}
}
