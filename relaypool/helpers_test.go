package relaypool_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// key returns a deterministic secret key for a test persona.
func key(name string) string {
	h := sha256.Sum256([]byte("relaypool-test-" + name))
	return hex.EncodeToString(h[:])
}

func pub(name string) string {
	pk, _ := nostr.GetPublicKey(key(name))
	return pk
}

// signed builds and signs an event by name.
func signed(t testing.TB, name string, kind int, at int64, content string, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(at), Content: content, Tags: nostr.Tags(tags)}
	if evt.Tags == nil {
		evt.Tags = nostr.Tags{}
	}
	if err := evt.Sign(key(name)); err != nil {
		t.Fatal(err)
	}
	return evt
}

func announcement(t testing.TB, name, identifier string, at int64, tags ...nostr.Tag) *nostr.Event {
	return signed(t, name, 30617, at, "", append([]nostr.Tag{{"d", identifier}}, tags...)...)
}

// signer answers NIP-42 challenges as name.
func signer(name string) func(context.Context, *nostr.Event) error {
	return func(_ context.Context, evt *nostr.Event) error { return evt.Sign(key(name)) }
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func ids(evs []*nostr.Event) map[string]bool {
	out := map[string]bool{}
	for _, e := range evs {
		out[e.ID] = true
	}
	return out
}
