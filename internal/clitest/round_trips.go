package clitest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
)

// Traffic is what one relay received during a command: its REQs (each
// with its filters) and the EVENTs published to it.
type Traffic struct {
	Reqs   [][]nostr.Filter
	Events int
}

// TrafficMark remembers where each relay's counters stood.
type TrafficMark struct {
	Relays []*devrelay.Relay
	Reqs   []int
	Events []int
}

func MarkTraffic(relays []*devrelay.Relay) TrafficMark {
	m := TrafficMark{Relays: relays}
	for _, r := range relays {
		m.Reqs = append(m.Reqs, r.ReqCount())
		m.Events = append(m.Events, r.EventCount())
	}
	return m
}

// Since is what each relay received after the mark.
func (m TrafficMark) Since() []Traffic {
	out := make([]Traffic, len(m.Relays))
	for i, r := range m.Relays {
		out[i] = Traffic{Reqs: r.Requests()[m.Reqs[i]:], Events: r.EventCount() - m.Events[i]}
	}
	return out
}

// WantTraffic fails unless every relay received exactly reqs REQs and
// Events EVENTs, printing every REQ's filters otherwise.
func WantTraffic(t *testing.T, what string, got []Traffic, reqs, events int) {
	t.Helper()
	for i, g := range got {
		if len(g.Reqs) != reqs || g.Events != events {
			var b strings.Builder
			for n, fs := range g.Reqs {
				raw, _ := json.Marshal(fs)
				fmt.Fprintf(&b, "\n  REQ %d: %s", n+1, raw)
			}
			t.Fatalf("%s: relay %d received %d REQs and %d EVENTs, want %d and %d:%s", what, i, len(g.Reqs), g.Events, reqs, events, b.String())
		}
	}
}

// ColdRun runs a command as p in a fresh roster home (an empty cache), so
// its round trips do not depend on earlier commands.
func (w *MutWorld) ColdRun(p, sel Person, now int64, args ...string) Result {
	w.T.Helper()
	w.Home = TestEnv(w.T)
	return w.Run(p, sel, now, args...)
}

// IsProfileREQ reports whether a REQ asks for kind 0 profiles only.
func IsProfileREQ(filters []nostr.Filter) bool {
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
