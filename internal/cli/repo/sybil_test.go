package repo_test

import (
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// sybils is how many same-identifier announcements from unrelated keys the
// spam tests put on the relay.
const sybils = 10_000

// sybilWorld: Alice's repository "my-repo" on one relay that also holds
// sybils valid announcements of "my-repo" from unrelated keys.
func sybilWorld(t testing.TB) *clitest.MutWorld {
	w := &clitest.MutWorld{Relays: devrelay.StartN(t, 1, devrelay.Options{}), Id: "my-repo", Home: clitest.TestEnv(t), Dir: t.TempDir()}
	clitest.Publish(t, w.Relays[0].URL(), clitest.Alice.Announce(t, w.Id, 100))
	for _, e := range testkeys.Sybils(t, w.Id, sybils) {
		w.Relays[0].Inject(e)
	}
	return w
}

// Rule (spam resistance): 10,000 valid same-identifier announcements from
// unrelated keys cost their parse: a cold read, a dry run and a real
// membership change all succeed (the deletion round names only the authors
// who can change the resolution, so the relay, which resets connections
// that send messages over 512,000 bytes, answers), and `repo health` has
// complete evidence.
func TestSybilAnnouncementsDoNotBreakReadsOrWrites(t *testing.T) {
	w := sybilWorld(t)
	w.T = t
	read := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "--json")
	var m map[string]any
	if read.Code != cmdutil.ExitOK || json.Unmarshal([]byte(read.Out), &m) != nil || m["complete"] != true {
		t.Fatalf("cold read: exit %d, complete %v\n%s\n%.3000s", read.Code, m["complete"], read.Err, read.Out)
	}
	if h := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "health", "--json"); h.Code == cmdutil.ExitIncomplete {
		t.Fatalf("repo health: exit 4 (incomplete evidence)\n%s", h.Out)
	}
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run")
	if out := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub()); out["verified"] != true {
		t.Fatalf("verified %v, want true", out["verified"])
	}
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Alice, clitest.Bob))
}

// BenchmarkRepoJSON10000Sybils is a cold `roster repo --json` (empty cache)
// of a one-maintainer repository whose relay also serves 10,000
// same-identifier announcements from unrelated keys; it reports the peak
// heap in use during the read (sampled) next to the wall time:
//
//	go test -run '^$' -bench RepoJSON10000Sybils -benchtime 5x ./cmd/roster
func BenchmarkRepoJSON10000Sybils(b *testing.B) {
	w := sybilWorld(b)
	args := append([]string{"repo", "--json", "--repo", clitest.Alice.Naddr(w.Id), "--timeout", "30s"}, clitest.RelayArgs(w.Relays)...)
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
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, m := clitest.TimeRepo(b, clitest.TestEnv(b), args...)
		if m["complete"] != true {
			b.Fatalf("incomplete read: %v", m["relays"])
		}
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
}
