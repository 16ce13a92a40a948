package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	"github.com/roster-cli/roster/internal/cli/root"
)

// bigRepository is a lead-shaped repository with n confirmed maintainers:
// the lead lists everyone, everyone points back at the lead, and the lead
// published a state event.
func bigRepository(t testing.TB, n int) []*nostr.Event {
	t.Helper()
	lead := newPerson("lead")
	tags := []nostr.Tag{role("M", lead)}
	projection := nostr.Tag{"maintainers", lead.pk}
	var events []*nostr.Event
	for i := 1; i < n; i++ {
		p := newPerson(fmt.Sprintf("maintainer-%02d", i))
		tags = append(tags, role("m", p, "100"))
		projection = append(projection, p.pk)
		events = append(events, p.announce(t, "big", 200, role("M", lead, "100"), role("m", p, "100"), maintainersTag(lead, p)))
	}
	events = append(events, lead.announce(t, "big", 300, append(tags, projection)...), lead.state(t, "big", 301, "0123456789012345678901234567890123456789"))
	return events
}

// bigSetup starts three relays holding a 50-maintainer repository.
func bigSetup(t testing.TB) (args []string, relays []*devrelay.Relay) {
	relays = devrelay.StartN(t, 3, devrelay.Options{})
	events := bigRepository(t, 50)
	for _, r := range relays {
		publish(t, r.URL(), events...)
	}
	return append([]string{"repo", "--json", "--repo", newPerson("lead").naddr("big")}, relayArgs(relays)...), relays
}

// timeRepo runs roster in-process (like invocation.roster, but usable from
// benchmarks) once and returns the wall time and decoded output.
func timeRepo(t testing.TB, env map[string]string, args ...string) (time.Duration, map[string]any) {
	var out, errb bytes.Buffer
	s := &cmdutil.IoStreams{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] }, Now: time.Now}
	start := time.Now()
	code := root.RunContext(context.Background(), commands.All, args, s, cmdutil.Seams{})
	d := time.Since(start)
	r := result{Out: out.String(), Err: errb.String(), Code: code}
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return d, m
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
		env := testEnv(t) // an empty cache: cold
		d, m := timeRepo(t, env, args...)
		cold, coldOut = append(cold, d), m
		before := relays[0].ReqCount()
		d, m = timeRepo(t, env, append(args, "--offline")...)
		warm, warmOut = append(warm, d), m
		if relays[0].ReqCount() != before {
			t.Fatalf("--offline contacted a relay")
		}
	}
	if n := len(coldOut["maintainers"].([]any)); n != 50 {
		t.Fatalf("cold read found %d maintainers, want 50", n)
	}
	for _, k := range []string{"maintainers", "lead_maintainer", "state"} {
		if !jsonEqual(coldOut[k], warmOut[k]) {
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
	warmEnv := testEnv(b)
	timeRepo(b, warmEnv, args...) // fill the cache once
	b.Run("cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			timeRepo(b, testEnv(b), args...)
		}
	})
	b.Run("warm-offline", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			timeRepo(b, warmEnv, append(args, "--offline")...)
		}
	})
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration{}, ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
