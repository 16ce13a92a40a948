package cache

import (
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool/verified"
)

// fiftyMaintainers is a 50-maintainer repository: one announcement and one
// state event per maintainer, all with identifier "big".
func fiftyMaintainers(b *testing.B) []*nostr.Event {
	var evts []*nostr.Event
	for i := 1; i <= 50; i++ {
		sk := fmt.Sprintf("%064x", i+100)
		evts = append(evts,
			signed(b, sk, 30617, 1000, "", nostr.Tag{"d", "big"}),
			signed(b, sk, 30618, 1000, "", nostr.Tag{"d", "big"}, nostr.Tag{"refs/heads/main", "1111111111111111111111111111111111111111"}))
	}
	return evts
}

func BenchmarkPut100Events(b *testing.B) {
	evts := fiftyMaintainers(b)
	benchIntoEmptyCache(b, func(c *Cache) error { return c.Put(evts...) })
}

// benchIntoEmptyCache times put into a freshly opened, empty cache, b.N
// times; opening and closing the cache are not timed.
func benchIntoEmptyCache(b *testing.B, put func(*Cache) error) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c, err := Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := put(c); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		c.Close()
		b.StartTimer()
	}
}

func BenchmarkQueryDiscoveryFiftyMaintainers(b *testing.B) {
	c, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Put(fiftyMaintainers(b)...); err != nil {
		b.Fatal(err)
	}
	f := nostr.Filter{Kinds: []int{30617, 30618}, Tags: nostr.TagMap{"d": {"big"}}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		evts, err := c.Query(f)
		if err != nil || len(evts) != 100 {
			b.Fatalf("%d events, %v", len(evts), err)
		}
	}
}

// BenchmarkPutVerified100Events is BenchmarkPut100Events through the trusted
// path: events relaypool already checked skip the second signature check.
func BenchmarkPutVerified100Events(b *testing.B) {
	var proofs []verified.Event
	for _, e := range fiftyMaintainers(b) {
		proofs = append(proofs, proof(b, e))
	}
	benchIntoEmptyCache(b, func(c *Cache) error { return c.PutVerified(proofs...) })
}
