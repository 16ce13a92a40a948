package change_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

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
		w := clitest.NewMutWorld(t, 2)
		old := clitest.Alice.Announce(t, w.Id, 100)
		w.Seed(old)
		w.Relays[1].SetMisbehaviour(devrelay.Misbehaviour{CacheFilters: time.Minute})
		var text string
		if human {
			r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
			if r.Code != cmdutil.ExitOK {
				t.Fatalf("exit %d, want 0\n%s%s", r.Code, r.Out, r.Err)
			}
			text = r.Out
		} else {
			out := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
			if out["verified"] != true {
				t.Fatalf("verified %v, want true\n%v", out["verified"], out)
			}
			text = fmt.Sprint(out["guidance"])
		}
		var current string
		for _, e := range w.Relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{clitest.Alice.Pk}}) {
			current = e.ID
		}
		want := w.Relays[1].URL() + " still serves the older version " + old.ID
		if !strings.Contains(text, want) || !strings.Contains(text, current) {
			t.Errorf("human %v: the result does not say %q (beside %s):\n%s", human, want, current, text)
		}
		if strings.Contains(text, w.Relays[0].URL()+" still serves") {
			t.Errorf("human %v: the honest relay is named as serving the older version:\n%s", human, text)
		}
		w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Alice, clitest.Bob))
	}
}
