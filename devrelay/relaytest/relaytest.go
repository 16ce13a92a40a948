// Package relaytest is what the relay tests share: a go-nostr websocket
// connection, NIP-42 authenticated when asked, a REQ read to its end, and a
// listener that never answers the handshake.
// Only tests import it (it imports "testing"); it takes URLs rather than
// *devrelay.Relay so that devrelay's own tests can use it too.
package relaytest

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// wait bounds every exchange with the relay, so that a relay that never
// answers fails the test instead of hanging it.
const wait = 5 * time.Second

// Connect opens a connection to url, closed when the test ends, and
// authenticates it (NIP-42) with secret key sk unless sk is "".
func Connect(t testing.TB, url, sk string) *nostr.Relay {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	c, err := nostr.RelayConnect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if sk == "" {
		return c
	}
	// The relay may not have sent a challenge yet; a REQ makes it send one.
	waitChallenge(t, c)
	if err := c.Auth(ctx, func(evt *nostr.Event) error { return evt.Sign(sk) }); err != nil {
		t.Fatalf("auth: %v", err)
	}
	return c
}

// waitChallenge triggers and waits for a NIP-42 challenge.
func waitChallenge(t testing.TB, c *nostr.Relay) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	sub, err := c.Subscribe(ctx, nostr.Filters{{Kinds: []int{0}, Limit: 1}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-sub.EndOfStoredEvents:
	case <-sub.ClosedReason:
	case <-ctx.Done():
		t.Fatal("no answer to the challenge-triggering REQ")
	}
	sub.Unsub()
}

// Query runs one REQ and returns the stored events the relay sent before EOSE,
// or before it refused or ended the subscription with CLOSED, whose reason
// it returns ("" after EOSE).
func Query(t testing.TB, c *nostr.Relay, f nostr.Filter) ([]*nostr.Event, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	sub, err := c.Subscribe(ctx, nostr.Filters{f})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsub()
	var out []*nostr.Event
	for {
		select {
		case e, open := <-sub.Events:
			if !open {
				// go-nostr queues a CLOSED's reason and then closes Events: a
				// closed channel yields nil events, never count them.
				return out, endedReason(t, sub)
			}
			out = append(out, e)
		case <-sub.EndOfStoredEvents:
			return out, ""
		case reason := <-sub.ClosedReason:
			return out, reason
		case <-ctx.Done():
			t.Fatal("no EOSE")
		}
	}
}

// endedReason is the CLOSED reason of a subscription whose Events channel
// has been closed; one that ended any other way fails the test.
func endedReason(t testing.TB, sub *nostr.Subscription) string {
	t.Helper()
	select {
	case reason := <-sub.ClosedReason:
		return reason
	default:
		t.Fatal("the subscription ended without EOSE or CLOSED")
		return ""
	}
}
