package devrelay

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/relaytest"
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

// connect opens a client connection to r, authenticated as name unless
// name is "".
func connect(t *testing.T, r *Relay, name string) *nostr.Relay {
	t.Helper()
	sk := ""
	if name != "" {
		sk = testKey(name)
	}
	return relaytest.Connect(t, r.URL(), sk)
}

// query runs one REQ and returns the stored events with the CLOSED reason,
// if the relay closed the subscription.
var query = relaytest.Query

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
