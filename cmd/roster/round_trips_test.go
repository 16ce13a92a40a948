package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// traffic is what one relay received during a command: its REQs (each
// with its filters) and the EVENTs published to it.
type traffic struct {
	reqs   [][]nostr.Filter
	events int
}

// trafficMark remembers where each relay's counters stood.
type trafficMark struct {
	relays []*devrelay.Relay
	reqs   []int
	events []int
}

func markTraffic(relays []*devrelay.Relay) trafficMark {
	m := trafficMark{relays: relays}
	for _, r := range relays {
		m.reqs = append(m.reqs, r.ReqCount())
		m.events = append(m.events, r.EventCount())
	}
	return m
}

// since is what each relay received after the mark.
func (m trafficMark) since() []traffic {
	out := make([]traffic, len(m.relays))
	for i, r := range m.relays {
		out[i] = traffic{reqs: r.Requests()[m.reqs[i]:], events: r.EventCount() - m.events[i]}
	}
	return out
}

// wantTraffic fails unless every relay received exactly reqs REQs and
// events EVENTs, printing every REQ's filters otherwise.
func wantTraffic(t *testing.T, what string, got []traffic, reqs, events int) {
	t.Helper()
	for i, g := range got {
		if len(g.reqs) != reqs || g.events != events {
			var b strings.Builder
			for n, fs := range g.reqs {
				raw, _ := json.Marshal(fs)
				fmt.Fprintf(&b, "\n  REQ %d: %s", n+1, raw)
			}
			t.Fatalf("%s: relay %d received %d REQs and %d EVENTs, want %d and %d:%s", what, i, len(g.reqs), g.events, reqs, events, b.String())
		}
	}
}

// coldRun runs a command as p in a fresh roster home (an empty cache), so
// its round trips do not depend on earlier commands.
func (w *mutWorld) coldRun(p, sel person, now int64, args ...string) result {
	w.t.Helper()
	w.home = testEnv(w.t)
	return w.run(p, sel, now, args...)
}

// Round trips (docs/PERFORMANCE.md, "Round trips per command"): how many
// REQs and EVENTs each repository command sends to each relay, cold (an
// empty cache), when the relay set and the component need no extra
// discovery round. Two relays, so a count that only one relay pays shows.
func TestRoundTripsPerCommand(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 2)
	w.seed(alice.announce(t, w.id, 100))

	cases := []struct {
		what         string
		as           person
		now          int64
		args         []string
		reqs, events int
		exit         int
	}{
		{"repo (discovery, profiles)", alice, 200, []string{"repo"}, 2, 0, cmdutil.ExitOK},
		{"repo health", alice, 200, []string{"repo", "health"}, 2, 0, cmdutil.ExitOK},
		{"repo edit --add-maintainer --dry-run (discovery, deletions, profiles)", alice, 300, []string{"repo", "edit", "--add-maintainer", bob.npub(), "--dry-run"}, 3, 0, cmdutil.ExitOK},
		{"repo edit --add-maintainer", alice, 1000, []string{"repo", "edit", "--add-maintainer", bob.npub()}, 6, 1, cmdutil.ExitOK},
		{"repo accept", bob, 2000, []string{"repo", "accept"}, 6, 1, cmdutil.ExitOK},
		{"repo edit --add-maintainer (a confirmed co-maintainer's events and deletions too)", alice, 3000, []string{"repo", "edit", "--add-maintainer", carol.npub()}, 6, 1, cmdutil.ExitOK},
	}
	for _, c := range cases {
		mark := markTraffic(w.relays)
		r := w.coldRun(c.as, alice, c.now, append(c.args, "--json")...)
		if r.Code != c.exit {
			t.Fatalf("%s: exit %d\n%s%s", c.what, r.Code, r.Out, r.Err)
		}
		wantTraffic(t, c.what, mark.since(), c.reqs, c.events)
		var out struct {
			Verified bool `json:"verified"`
		}
		if c.events > 0 && (json.Unmarshal([]byte(r.Out), &out) != nil || !out.Verified) {
			t.Fatalf("%s: not verified:\n%s", c.what, r.Out)
		}
	}
}

// Round trips of `repo init` (docs/PERFORMANCE.md, "Round trips per
// command"): one REQ for the author's existing announcement, the EVENT,
// and one REQ reading it back, per relay.
func TestRoundTripsOfRepoInit(t *testing.T) {
	t.Parallel()
	k := newTestKey(t)
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	dir, _ := initTestCheckout(t, "widget")
	env := homeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.nsec
	mark := markTraffic(relays)
	r := invocation{Env: env, Dir: dir}.roster(t, append([]string{"repo", "init", "--json"}, initRelayFlags(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	wantTraffic(t, "repo init", mark.since(), 2, 1)
}

// isProfileREQ reports whether a REQ asks for kind 0 profiles only.
func isProfileREQ(filters []nostr.Filter) bool {
	if len(filters) == 0 {
		return false
	}
	for _, f := range filters {
		if len(f.Kinds) != 1 || f.Kinds[0] != 0 {
			return false
		}
	}
	return true
}
