package main

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (no lost update against a relay serving the version a write
// replaced): after Alice invited Bob, the relay serves her previous
// announcement again and withholds the current one, to every filter. A
// second change on this machine, which verified the current one, fails
// closed (exit 4, stale-relays) and publishes nothing; once the relay
// serves the current version it goes through, and Bob's invitation
// survives Carol's.
func TestAWriteThroughARelayServingTheReplacedVersionIsStale(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	old := alice.announce(t, w.id, 100)
	w.seed(old)
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	current := map[string]bool{}
	for _, e := range w.relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{alice.pk}}) {
		current[e.ID] = true
	}
	w.relays[0].Inject(old)
	w.relays[0].SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool { return current[e.ID] }})
	before := w.storedCount()
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", carol.npub(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"code": "stale-relays"`) || w.storedCount() != before {
		t.Fatalf("exit %d while the relay serves the replaced version, want 4 stale-relays with nothing stored\n%s%s", r.Code, r.Out, r.Err)
	}
	w.relays[0].SetMisbehaviour(devrelay.Misbehaviour{})
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", carol.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob, "1000"), role("m", carol, "1000"), projection(alice, bob, carol))
}
