package relaypool_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// seedMaintainers publishes a lead-shaped repository with n maintainers
// (the lead lists everyone; each co-maintainer points back) and a state.
func seedMaintainers(b *testing.B, relays []*devrelay.Relay, n int) graph.Coordinate {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("m%03d", i)
	}
	lead := names[0]
	leadTags := []nostr.Tag{{"M", pub(lead)}}
	for _, m := range names[1:] {
		leadTags = append(leadTags, nostr.Tag{"m", pub(m), "100"})
	}
	evs := []*nostr.Event{announcement(b, lead, "big", 200, leadTags...)}
	for _, m := range names[1:] {
		evs = append(evs, announcement(b, m, "big", 150, nostr.Tag{"M", pub(lead), "100"}, nostr.Tag{"m", pub(m), "100"}))
	}
	evs = append(evs, signed(b, lead, 30618, 300, "", nostr.Tag{"d", "big"}, nostr.Tag{"HEAD", "ref: refs/heads/main"}))
	for _, r := range relays {
		for _, e := range evs {
			if err := r.Publish(e); err != nil {
				b.Fatal(err)
			}
		}
	}
	return graph.NewCoordinate(pub(lead), "big")
}

// BenchmarkDiscover50Maintainers measures one discovery of a 50-maintainer
// repository on 3 local relays: "cold" dials new connections every time
// (what one `roster repo` run does), "warm" reuses the pool's connections.
// reqs/relay is reported as a metric and must stay 1; sigchecks/op counts
// signature checks and must stay 51 (one per distinct event).
func BenchmarkDiscover50Maintainers(b *testing.B) {
	relays := devrelay.StartN(b, 3, devrelay.Options{})
	coord := seedMaintainers(b, relays, 50)
	urls := devrelay.URLs(relays)
	ctx := context.Background()
	check := func(b *testing.B, res *relaypool.FetchResult) {
		if !res.Complete || len(res.Events) != 51 {
			b.Fatalf("complete %v, %d events", res.Complete, len(res.Events))
		}
	}
	b.Run("cold", func(b *testing.B) {
		before := relays[0].ReqCount()
		var checks int64
		for i := 0; i < b.N; i++ {
			p := relaypool.New(relaypool.Options{})
			check(b, p.Discover(ctx, urls, "big", coord))
			checks += p.SignatureChecks()
			p.Close()
		}
		b.ReportMetric(float64(relays[0].ReqCount()-before)/float64(b.N), "reqs/relay")
		// 3 relays send 51 events each: one check per distinct event is 51.
		b.ReportMetric(float64(checks)/float64(b.N), "sigchecks/op")
	})
	b.Run("warm", func(b *testing.B) {
		p := relaypool.New(relaypool.Options{})
		defer p.Close()
		check(b, p.Discover(ctx, urls, "big", coord))
		before := relays[0].ReqCount()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			check(b, p.Discover(ctx, urls, "big", coord))
		}
		b.ReportMetric(float64(relays[0].ReqCount()-before)/float64(b.N), "reqs/relay")
	})
	b.Run("with-deletion-round", func(b *testing.B) {
		before := relays[0].ReqCount()
		for i := 0; i < b.N; i++ {
			p := relaypool.New(relaypool.Options{})
			res := p.Discover(ctx, urls, "big", coord)
			check(b, p.CompleteDeletions(ctx, res, authorsOf(res.Events)))
			p.Close()
		}
		b.ReportMetric(float64(relays[0].ReqCount()-before)/float64(b.N), "reqs/relay")
	})
}

func authorsOf(evs []*nostr.Event) []string {
	var out []string
	for _, e := range evs {
		if !slices.Contains(out, e.PubKey) {
			out = append(out, e.PubKey)
		}
	}
	return out
}
