package testkeys

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Named is the secret key of the test persona name: sha256(namespace+name)
// in hex. A persona has the same key in every run, so event ids and the
// orderings they break ties in stay put; each test package uses its own
// namespace ("devrelay-test-", "relaypool-test-") so keys are never shared
// by accident. The relay and pool tests use it as well as the workspace ones.
func Named(namespace, name string) string {
	h := sha256.Sum256([]byte(namespace + name))
	return hex.EncodeToString(h[:])
}

// Event signs a new event by secret key sk. Its tags are an empty list, never
// nil, like those of an event read back from a relay.
func Event(t testing.TB, sk string, kind int, at int64, content string, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(at), Content: content, Tags: nostr.Tags(tags)}
	if evt.Tags == nil {
		evt.Tags = nostr.Tags{}
	}
	return Sign(t, sk, evt)
}
