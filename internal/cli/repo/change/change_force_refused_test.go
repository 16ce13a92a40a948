package change_test

import (
	"math"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// "Force stays refused, publishing nothing, for joins, identity/history
// conflicts, unavailable objects, concurrent changes, an order that cannot
// be established, and incomplete discovery" (maintainers.md: "--force is
// valid only when the sole unresolved difference is kind 30618 state").
// Each case runs from Alice's checkout, where --force would otherwise keep
// her refs; w.refused asserts the relays stored nothing. The unavailable
// objects case is TestForcedAcceptChecksObjectsThenPublishesTheCheckoutsState.

// A join imports Dave through Bob: --force cannot turn it into a state choice.
func TestForceIsRefusedForARepositoryJoin(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Seed(clitest.Bob.Announce(t, w.Id, 200, clitest.Role("m", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Dave, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Dave)),
		clitest.Dave.Announce(t, w.Id, 300, clitest.Role("m", clitest.Bob, "300"), clitest.Role("m", clitest.Dave, "300"), clitest.MaintainersTag(clitest.Bob, clitest.Dave)),
		clitest.Bob.State(t, w.Id, 400, s.MainB))
	w.Dir = s.Alice.Dir
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "repository-join", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force")
	if msg := m["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "--force is not available for a repository join") {
		t.Fatal(msg)
	}
}

// Bob's repository has another earliest unique commit: identity, not state.
func TestForceIsRefusedForAnIdentityConflict(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Seed(clitest.Alice.Announce(t, w.Id, 150, nostr.Tag{"clone", s.Url}, nostr.Tag{"r", s.MainA, "euc"}),
		clitest.Bob.Announce(t, w.Id, 200, nostr.Tag{"r", s.MainB, "euc"}, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.State(t, w.Id, 300, s.MainB))
	w.Dir = s.Alice.Dir
	w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "identity-conflict", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force")
}

// "--force fixes the intended state direction; it does not waive this
// recheck": Bob publishes new state between the preview and the recheck,
// so neither the forced state nor the announcement is published.
func TestForceDoesNotWaiveTheRecheck(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Seed(clitest.Bob.Announce(t, w.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)), clitest.Bob.State(t, w.Id, 300, s.MainB))
	w.Dir = s.Alice.Dir
	newer := clitest.Bob.State(t, w.Id, 500, s.MainA)
	w.Seams.BeforeRecheck = func() { w.Seed(newer) }
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force", "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"concurrent-change"`) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if got := s.Stored(clitest.Alice); len(got) != 1 {
		t.Fatalf("Alice's relays store %d state events, want only her first", len(got))
	}
}

// "If it cannot establish that order safely, it fails": a candidate dated at
// the largest time an event can carry leaves no later created_at.
func TestForceIsRefusedWhenNoOrderAfterEveryCandidateExists(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Seed(clitest.Bob.Announce(t, w.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)), clitest.Bob.State(t, w.Id, math.MaxInt64, s.MainB))
	w.Dir = s.Alice.Dir
	w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "state-order-impossible", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force")
}

// "--force cannot turn incomplete discovery into evidence that overwriting
// is safe": a relay that does not answer is exit 4 with --force too.
func TestForceIsRefusedOnIncompleteDiscovery(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Seed(clitest.Bob.Announce(t, w.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)), clitest.Bob.State(t, w.Id, 300, s.MainB))
	w.Dir = s.Alice.Dir
	w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitIncomplete, "incomplete", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force", "--relay", "ws://127.0.0.1:1")
}

// "Verification compares state too": a state event that lands after the
// pre-signing recheck changes the resolved state, so the change is not
// reported verified (exit 6) and the problem names the event.
func TestVerificationComparesTheReReadState(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	late := clitest.Alice.State(t, w.Id, 900, s.MainB)
	w.Seams.AfterPublish = func() { w.Seed(late) }
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Out, late.ID) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}
