package graph

import (
	"testing"
)

func benchmarkResolve(b *testing.B, n int) {
	evts, lead := canonicalRoster(n)
	viewer := lead
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := Resolve(evts, NewCoordinate(lead, testID), 10_000, Options{Viewer: viewer})
		if len(r.Component) != n {
			b.Fatalf("component %d, want %d", len(r.Component), n)
		}
	}
}

func BenchmarkResolve10(b *testing.B)    { benchmarkResolve(b, 10) }
func BenchmarkResolve100(b *testing.B)   { benchmarkResolve(b, 100) }
func BenchmarkResolve1000(b *testing.B)  { benchmarkResolve(b, 1000) }
func BenchmarkResolve10000(b *testing.B) { benchmarkResolve(b, 10000) }

// TestResolve10000UnderBudget guards the figure: 10,000
// announcements resolve in under 100 ms here.
func TestResolve10000UnderBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("timing check skipped in -short mode")
	}
	res := testing.Benchmark(func(b *testing.B) { benchmarkResolve(b, 10000) })
	if per := res.NsPerOp(); per > 100e6 {
		t.Fatalf("10,000 announcements took %d ms per resolve", per/1e6)
	}
}
