package cache

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

const (
	aliceSK = "0000000000000000000000000000000000000000000000000000000000000001"
	bobSK   = "0000000000000000000000000000000000000000000000000000000000000002"
)

var (
	alicePK, _ = nostr.GetPublicKey(aliceSK)
	bobPK, _   = nostr.GetPublicKey(bobSK)
)

func signed(t testing.TB, sk string, kind int, at int64, content string, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(at), Content: content, Tags: nostr.Tags(tags)}
	if evt.Tags == nil {
		evt.Tags = nostr.Tags{}
	}
	if err := evt.Sign(sk); err != nil {
		t.Fatal(err)
	}
	return evt
}

func openTemp(t testing.TB) (*Cache, string) {
	t.Helper()
	home := t.TempDir()
	c, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c, home
}

func ids(evts []*nostr.Event) []string {
	out := []string{}
	for _, e := range evts {
		out = append(out, e.ID)
	}
	return out
}

func query(t testing.TB, c *Cache, f nostr.Filter) []string {
	t.Helper()
	evts, err := c.Query(f)
	if err != nil {
		t.Fatal(err)
	}
	return ids(evts)
}

func announcement(t testing.TB, sk, d string, at int64, content string) *nostr.Event {
	return signed(t, sk, 30617, at, content, nostr.Tag{"d", d})
}
