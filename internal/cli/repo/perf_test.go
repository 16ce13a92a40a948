package repo_test

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
)

// bigRepository is a lead-shaped repository with n confirmed maintainers:
// the lead lists everyone, everyone points back at the lead, and the lead
// published a state event.
func bigRepository(t testing.TB, n int) []*nostr.Event {
	t.Helper()
	lead := clitest.NewPerson("lead")
	tags := []nostr.Tag{clitest.Role("M", lead)}
	projection := nostr.Tag{"maintainers", lead.Pk}
	var events []*nostr.Event
	for i := 1; i < n; i++ {
		p := clitest.NewPerson(fmt.Sprintf("maintainer-%02d", i))
		tags = append(tags, clitest.Role("m", p, "100"))
		projection = append(projection, p.Pk)
		events = append(events, p.Announce(t, "big", 200, clitest.Role("M", lead, "100"), clitest.Role("m", p, "100"), clitest.MaintainersTag(lead, p)))
	}
	events = append(events, lead.Announce(t, "big", 300, append(tags, projection)...), lead.State(t, "big", 301, "0123456789012345678901234567890123456789"))
	return events
}

// bigSetup starts three relays holding a 50-maintainer repository.
func bigSetup(t testing.TB) (args []string, relays []*devrelay.Relay) {
	relays = devrelay.StartN(t, 3, devrelay.Options{})
	events := bigRepository(t, 50)
	for _, r := range relays {
		clitest.Publish(t, r.URL(), events...)
	}
	return append([]string{"repo", "--json", "--repo", clitest.NewPerson("lead").Naddr("big")}, clitest.RelayArgs(relays)...), relays
}

// Performance figures: cold (relays, empty cache) and warm
// (--offline, cache only) `roster repo --json` for a 50-maintainer
// repository, side by side in one run. The figures go to docs/PERFORMANCE.md;
// run with -v to see them. Both reads must give the same answer.
func TestRepoColdVersusWarm50Maintainers(t *testing.T) {
	t.Parallel()
	args, relays := bigSetup(t)
	const rounds = 5
	var cold, warm []time.Duration
	var coldOut, warmOut map[string]any
	for i := 0; i < rounds; i++ {
		env := clitest.TestEnv(t) // an empty cache: cold
		d, m := clitest.TimeRepo(t, env, args...)
		cold, coldOut = append(cold, d), m
		before := relays[0].ReqCount()
		d, m = clitest.TimeRepo(t, env, append(args, "--offline")...)
		warm, warmOut = append(warm, d), m
		if relays[0].ReqCount() != before {
			t.Fatalf("--offline contacted a relay")
		}
	}
	if n := len(coldOut["maintainers"].([]any)); n != 50 {
		t.Fatalf("cold read found %d maintainers, want 50", n)
	}
	for _, k := range []string{"maintainers", "lead_maintainer", "state"} {
		if !clitest.JsonEqual(coldOut[k], warmOut[k]) {
			t.Fatalf("%s differs between cold and warm reads", k)
		}
	}
	c, w := median(cold), median(warm)
	t.Logf("50 maintainers, 3 relays, median of %d: cold %v, warm (--offline) %v, cold/warm %.1fx", rounds, c, w, float64(c)/float64(w))
}

// BenchmarkRepoJSON50Maintainers is the same measurement as a benchmark:
//
//	go test -run '^$' -bench RepoJSON50 ./cmd/roster
func BenchmarkRepoJSON50Maintainers(b *testing.B) {
	args, _ := bigSetup(b)
	warmEnv := clitest.TestEnv(b)
	clitest.TimeRepo(b, warmEnv, args...) // fill the cache once
	b.Run("cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			clitest.TimeRepo(b, clitest.TestEnv(b), args...)
		}
	})
	b.Run("warm-offline", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			clitest.TimeRepo(b, warmEnv, append(args, "--offline")...)
		}
	})
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration{}, ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
