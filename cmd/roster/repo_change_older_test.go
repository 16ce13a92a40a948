package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (a write verified against a relay that still serves the replaced
// version says so): beside an honest relay, a second relay answers
// repeated filters from a cache (as @nostr-relay does for a second), so
// its verification reads return the announcement the edit replaced beside
// the new one (found by id). The edit stays verified (exit 0, verified
// true: the re-resolution with what the relays returned by id matches the
// preview), and its guidance names that relay and the older version; the
// honest relay is not named. The human result says the same.
func TestAWriteVerifiedAgainstARelayStillServingTheOldVersionSaysSo(t *testing.T) {
	t.Parallel()
	for _, human := range []bool{false, true} {
		w := newMutWorld(t, 2)
		old := alice.announce(t, w.id, 100)
		w.seed(old)
		w.relays[1].SetMisbehaviour(devrelay.Misbehaviour{CacheFilters: time.Minute})
		var text string
		if human {
			r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
			if r.Code != cmdutil.ExitOK {
				t.Fatalf("exit %d, want 0\n%s%s", r.Code, r.Out, r.Err)
			}
			text = r.Out
		} else {
			out := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
			if out["verified"] != true {
				t.Fatalf("verified %v, want true\n%v", out["verified"], out)
			}
			text = fmt.Sprint(out["guidance"])
		}
		var current string
		for _, e := range w.relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{alice.pk}}) {
			current = e.ID
		}
		want := w.relays[1].URL() + " still serves the older version " + old.ID
		if !strings.Contains(text, want) || !strings.Contains(text, current) {
			t.Errorf("human %v: the result does not say %q (beside %s):\n%s", human, want, current, text)
		}
		if strings.Contains(text, w.relays[0].URL()+" still serves") {
			t.Errorf("human %v: the honest relay is named as serving the older version:\n%s", human, text)
		}
		w.wantLatest(alice, role("M", alice), role("m", bob, "1000"), projection(alice, bob))
	}
}
