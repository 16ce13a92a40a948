package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/workspace/testkeys"
)

// Rule (a recheck compares what can change the resolution): between the
// preview and the recheck, 2,000 same-identifier announcements from
// unrelated keys appear on one of two relays. Nobody the change reaches
// wrote them, so the repository did not change: the edit goes through,
// verified, instead of failing concurrent-change with a message naming
// every stranger.
func TestStrangersAnnouncementsBetweenPreviewAndRecheckAreNoConcurrentChange(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 2)
	w.seed(alice.announce(t, w.id, 100))
	sybils := testkeys.Sybils(t, w.id, 2000)
	w.seams.BeforeRecheck = func() {
		for _, e := range sybils {
			w.relays[1].Inject(e)
		}
	}
	if out := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub()); out["verified"] != true {
		t.Fatalf("verified %v, want true", out["verified"])
	}
	w.wantLatest(alice, role("M", alice), role("m", bob, "1000"), projection(alice, bob))
}

// Rule (a concurrent-change message is bounded): more than MaxChangedShown
// changed events are said as their count and the first few.
func TestConcurrentChangeMessageIsBounded(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100, role("M", alice), role("m", bob, "50"), role("m", carol, "50"), role("m", dave, "50"),
		maintainersTag(alice, bob, carol, dave)))
	people := []person{bob, carol, dave}
	w.seams.BeforeRecheck = func() {
		for i, p := range people {
			w.seed(p.announce(t, w.id, int64(200+i), role("M", alice, "50"), role("m", p, "50")), p.state(t, w.id, int64(300+i), strings.Repeat("ab", 20)))
		}
	}
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", erin.npub(), "--json")
	var m struct {
		Error struct {
			Code, Message string
		}
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || m.Error.Code != "concurrent-change" {
		t.Fatalf("exit %d: %v\n%s", r.Code, err, r.Out)
	}
	if !strings.Contains(m.Error.Message, "6 events changed") || !strings.Contains(m.Error.Message, "and 1 more") {
		t.Fatalf("message: %s", m.Error.Message)
	}
}
