package relaypool_test

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// key returns a deterministic secret key for a test persona.
func key(name string) string { return testkeys.Named("relaypool-test-", name) }

func pub(name string) string {
	pk, _ := nostr.GetPublicKey(key(name))
	return pk
}

// signed builds and signs an event by name.
func signed(t testing.TB, name string, kind int, at int64, content string, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	return testkeys.Event(t, key(name), kind, at, content, tags...)
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
