package devrelay

import (
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/relaytest"
	"github.com/roster-cli/roster/workspace/testkeys"
)

func testKey(name string) string { return testkeys.Named("devrelay-test-", name) }

func testPub(name string) string {
	pk, _ := nostr.GetPublicKey(testKey(name))
	return pk
}

func sign(t testing.TB, name string, kind int, at int64, content string, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	return testkeys.Event(t, testKey(name), kind, at, content, tags...)
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
