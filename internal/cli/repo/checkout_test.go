package repo_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// maintainers.md "Coordinates and repository data": inside a checkout with
// no --repo, `git config nostr.repo` selects the coordinate, and its naddr's
// relay hint is where roster looks (no --relay, no ROSTER_RELAYS).
func TestRepoInCheckoutSelectsNostrRepoAndUsesItsRelayHint(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	dir, _ := clitest.CheckoutSelecting(t, gitstate.EncodeNaddr(clitest.Bob.Coord("proj"), []string{relays[0].URL()}))
	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: clitest.TestEnv(t), Dir: dir})
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if m["selected_maintainer"] != clitest.Bob.Npub() || m["lead_maintainer"] != clitest.Alice.Npub() || m["complete"] != true {
		t.Fatalf("selection from nostr.repo:\n%s", r.Out)
	}
	if st := clitest.RelayStatuses(t, m["relays"]); st[relays[0].URL()] != "ok" || len(st) != 1 {
		t.Fatalf("relays %v, want only the naddr's hint", st)
	}
}
