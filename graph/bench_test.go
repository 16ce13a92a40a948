package graph

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time. Under a shared, loaded
// machine wall time mostly measures the other tenants; CPU time per
// resolve is the figure docs/PERFORMANCE.md records next to ns/op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchmarkResolve(b *testing.B, n int) {
	evts, lead := canonicalRoster(n)
	b.ReportAllocs()
	b.ResetTimer()
	start, runs := cpuTime(), 0
	for b.Loop() {
		r := Resolve(evts, NewCoordinate(lead, testID), 10_000, Options{Viewer: lead})
		if len(r.Component) != n {
			b.Fatalf("component %d, want %d", len(r.Component), n)
		}
		runs++
	}
	b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(runs), "cpu-ms/op")
}

func BenchmarkResolve10(b *testing.B)    { benchmarkResolve(b, 10) }
func BenchmarkResolve100(b *testing.B)   { benchmarkResolve(b, 100) }
func BenchmarkResolve1000(b *testing.B)  { benchmarkResolve(b, 1000) }
func BenchmarkResolve10000(b *testing.B) { benchmarkResolve(b, 10000) }

// TestResolveGrowsLinearly checks the shape of the cost without timing
// (timing depends on whatever else shares the machine): ten times the
// announcements must cost at most about ten times the allocations and
// bytes. A quadratic step would multiply them by a hundred.
func TestResolveGrowsLinearly(t *testing.T) {
	measure := func(n int) (allocs float64, bytes uint64) {
		evts, lead := canonicalRoster(n)
		run := func() { Resolve(evts, NewCoordinate(lead, testID), 10_000, Options{Viewer: lead}) }
		// One warm-up run, then both figures from one measured run:
		// Resolve is deterministic, so its allocations do not vary from run
		// to run (testing.AllocsPerRun averaged three more runs of each size,
		// which under -race took most of the test's 15 s).
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // as AllocsPerRun does
		run()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		run()
		runtime.ReadMemStats(&after)
		return float64(after.Mallocs - before.Mallocs), after.TotalAlloc - before.TotalAlloc
	}
	a1, b1 := measure(1000)
	a2, b2 := measure(10000)
	if ra, rb := a2/a1, float64(b2)/float64(b1); ra > 12 || rb > 14 {
		t.Fatalf("1,000 -> 10,000 announcements: allocations x%.1f, bytes x%.1f; resolution is no longer linear", ra, rb)
	}
}
