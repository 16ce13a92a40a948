package clitest

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func CacheTestEvent(t *testing.T, kind int, at int64, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(at), Tags: nostr.Tags(tags)}
	if evt.Tags == nil {
		evt.Tags = nostr.Tags{}
	}
	if err := evt.Sign("0000000000000000000000000000000000000000000000000000000000000007"); err != nil {
		t.Fatal(err)
	}
	return evt
}
