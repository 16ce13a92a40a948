package cache

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

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

// floodedCache is a cache holding n addressable events of about 200 KiB
// under identifier d, one per author, as a flood leaves it once the cap
// and latest-per-address rule have done their work.
func floodedCache(b *testing.B, n int, d string) *Cache {
	c, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	for i := 0; i < n; i += 20 {
		var batch []*nostr.Event
		for j := i; j < i+20 && j < n; j++ {
			batch = append(batch, sized(b, secretKey(j), 30617, 1000, 200<<10, nostr.Tag{"d", d}))
		}
		if err := c.Put(batch...); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// peakHeap runs fn while sampling the live heap, and returns the highest
// figure seen above what was live before.
func peakHeap(fn func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			default:
				time.Sleep(50 * time.Microsecond)
			}
		}
	}()
	fn()
	close(stop)
	<-done
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// BenchmarkQueryFlood reads a repository from a cache a flood filled:
// "all" asks for the flooded identifier (every event is returned), "other"
// for another identifier (the flood is decoded and dropped). It reports
// the peak heap of one read.
func BenchmarkQueryFlood(b *testing.B) {
	const n = 200 // 40 MB of events, under the default cap
	c := floodedCache(b, n, "flood")
	if err := c.Put(signed(b, aliceSK, 30617, 1000, "", nostr.Tag{"d", "mine"})); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name, d string
		want    int
	}{{"all", "flood", n}, {"other", "mine", 1}} {
		b.Run(bc.name, func(b *testing.B) {
			f := nostr.Filter{Kinds: []int{30617, 30618}, Tags: nostr.TagMap{"d": {bc.d}}}
			var peak uint64
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				p := peakHeap(func() {
					evts, err := c.Query(f)
					if err != nil || len(evts) != bc.want {
						b.Fatalf("%d events, %v", len(evts), err)
					}
				})
				peak = max(peak, p)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}
