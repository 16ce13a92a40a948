package change_test

import (
	"slices"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// maintainers.md "Transferring the lead": follow-lead "switches the local
// nostr:// coordinate and nostr.repo". The switched nostr.repo keeps the
// relay hint the old one carried, so `roster repo` in the checkout still
// knows where to look (no --relay, no ROSTER_RELAYS): without it the
// checkout answers "no relays to ask" right after following the lead.
func TestFollowLeadKeepsTheCheckoutsRelayHint(t *testing.T) {
	t.Parallel()
	w := clitest.BobTookTheLead(t)

	hint := []string{w.Relays[0].URL()}
	dir, co := clitest.CheckoutSelecting(t, gitstate.EncodeNaddr(clitest.Alice.Coord(w.Id), hint))
	inv := clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Alice), Dir: dir, Now: time.Unix(5000, 0)}
	if r := inv.Roster(t, "repo", "follow-lead"); r.Code != cmdutil.ExitOK {
		t.Fatalf("follow-lead: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	sel, err := co.ResolveCoordinate("")
	if err != nil {
		t.Fatal(err)
	}
	if sel.Coordinate != clitest.Bob.Coord(w.Id) || !slices.Equal(sel.Relays, hint) {
		t.Fatalf("nostr.repo selects %v with hints %v, want %v with %v", sel.Coordinate, sel.Relays, clitest.Bob.Coord(w.Id), hint)
	}
	if r := inv.Roster(t, "repo"); r.Code != cmdutil.ExitOK {
		t.Fatalf("roster repo in the followed checkout: exit %d\n%s", r.Code, r.Err)
	}
}
