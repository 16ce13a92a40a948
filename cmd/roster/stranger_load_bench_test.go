package main

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// strangerIssues is how many issues (each with its own closing status) one
// stranger puts on the coordinate in BenchmarkWriteBeside50kStrangerIssues.
const strangerIssues = 50_000

var (
	strangerLoadOnce sync.Once
	strangerLoad     []*nostr.Event
)

// strangerIssuesAndStatuses are Erin's strangerIssues issues on Alice's
// my-repo and a status of Erin's own on each, signed once per test binary.
func strangerIssuesAndStatuses(tb testing.TB) []*nostr.Event {
	strangerLoadOnce.Do(func() {
		a := nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":my-repo"}
		for i := 0; i < strangerIssues; i++ {
			issue := testkeys.Event(tb, clitest.Erin.Sk, 1621, int64(200+i), "spam", a)
			strangerLoad = append(strangerLoad, issue, testkeys.Event(tb, clitest.Erin.Sk, 1632, int64(200+i), "", a, nostr.Tag{"e", issue.ID, "", "root"}))
		}
	})
	return strangerLoad
}

// BenchmarkWriteBeside50kStrangerIssues is a real membership change (Alice
// invites Bob; empty cache) on a relay that also holds one stranger's
// 50,000 issues on the coordinate and 50,000 statuses on them; it reports
// the peak heap in use during the write (sampled, relay and its store
// included) and the heap in use before it:
//
//	go test -run '^$' -bench WriteBeside50kStrangerIssues -benchtime 1x -count 3 ./cmd/roster
func BenchmarkWriteBeside50kStrangerIssues(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		relays := devrelay.StartN(b, 1, devrelay.Options{})
		clitest.Publish(b, relays[0].URL(), clitest.Alice.Announce(b, "my-repo", 100))
		for _, e := range strangerIssuesAndStatuses(b) {
			relays[0].Inject(e)
		}
		env := clitest.WithKey(clitest.TestEnv(b), clitest.Alice)
		args := append([]string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json", "--repo", clitest.Alice.Naddr("my-repo"), "--timeout", "120s"}, clitest.RelayArgs(relays)...)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.HeapInuse
		var peak atomic.Uint64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ms runtime.MemStats
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}()
		b.StartTimer()
		_, m := clitest.TimeRepo(b, env, args...)
		b.StopTimer()
		close(stop)
		wg.Wait()
		if m["verified"] != true {
			b.Fatalf("verified %v", m["verified"])
		}
		b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(before)/(1<<20), "heap-before-MiB")
	}
}
