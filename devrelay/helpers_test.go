package devrelay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

func testKey(name string) string {
	h := sha256.Sum256([]byte("devrelay-test-" + name))
	return hex.EncodeToString(h[:])
}

func testPub(name string) string {
	pk, _ := nostr.GetPublicKey(testKey(name))
	return pk
}

func sign(t testing.TB, name string, kind int, at int64, content string, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(at), Content: content, Tags: nostr.Tags(tags)}
	if evt.Tags == nil {
		evt.Tags = nostr.Tags{}
	}
	if err := evt.Sign(testKey(name)); err != nil {
		t.Fatal(err)
	}
	return evt
}

func start(t *testing.T, opts Options) *Relay {
	t.Helper()
	return StartN(t, 1, opts)[0]
}

// connect opens a go-nostr client connection, authenticated as name unless
// name is "".
func connect(t *testing.T, r *Relay, name string) *nostr.Relay {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := nostr.RelayConnect(ctx, r.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if name != "" {
		// The relay may not have sent a challenge yet; ask for one with a REQ.
		waitChallenge(t, c)
		if err := c.Auth(ctx, func(evt *nostr.Event) error { return evt.Sign(testKey(name)) }); err != nil {
			t.Fatalf("auth as %s: %v", name, err)
		}
	}
	return c
}

// waitChallenge triggers and waits for a NIP-42 challenge.
func waitChallenge(t *testing.T, c *nostr.Relay) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
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

// query runs one REQ and returns the stored events until EOSE.
func query(t *testing.T, c *nostr.Relay, f nostr.Filter) ([]*nostr.Event, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
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
func endedReason(t *testing.T, sub *nostr.Subscription) string {
	t.Helper()
	select {
	case reason := <-sub.ClosedReason:
		return reason
	default:
		t.Fatal("the subscription ended without EOSE or CLOSED")
		return ""
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
