package main

import (
	"math"
	"strings"
	"testing"

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
	s := newJoinScene(t)
	w := s.w
	w.seed(bob.announce(t, w.id, 200, role("m", alice, "200"), role("m", bob, "200"), role("m", dave, "200"), maintainersTag(alice, bob, dave)),
		dave.announce(t, w.id, 300, role("m", bob, "300"), role("m", dave, "300"), maintainersTag(bob, dave)),
		bob.state(t, w.id, 400, s.mainB))
	w.dir = s.alice.dir
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "repository-join", "repo", "edit", "--add-maintainer", bob.npub(), "--force")
	if msg := m["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "--force is not available for a repository join") {
		t.Fatal(msg)
	}
}

// Bob's repository has another earliest unique commit: identity, not state.
func TestForceIsRefusedForAnIdentityConflict(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	w.seed(alice.announce(t, w.id, 150, nostr.Tag{"clone", s.url}, nostr.Tag{"r", s.mainA, "euc"}),
		bob.announce(t, w.id, 200, nostr.Tag{"r", s.mainB, "euc"}, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
		bob.state(t, w.id, 300, s.mainB))
	w.dir = s.alice.dir
	w.refused(alice, alice, 1000, cmdutil.ExitRefused, "identity-conflict", "repo", "edit", "--add-maintainer", bob.npub(), "--force")
}

// "--force fixes the intended state direction; it does not waive this
// recheck": Bob publishes new state between the preview and the recheck,
// so neither the forced state nor the announcement is published.
func TestForceDoesNotWaiveTheRecheck(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	w.seed(bob.announce(t, w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)), bob.state(t, w.id, 300, s.mainB))
	w.dir = s.alice.dir
	newer := bob.state(t, w.id, 500, s.mainA)
	w.seams.BeforeRecheck = func() { w.seed(newer) }
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--force", "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"concurrent-change"`) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if got := s.stored(alice); len(got) != 1 {
		t.Fatalf("Alice's relays store %d state events, want only her first", len(got))
	}
}

// "If it cannot establish that order safely, it fails": a candidate dated at
// the largest time an event can carry leaves no later created_at.
func TestForceIsRefusedWhenNoOrderAfterEveryCandidateExists(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	w.seed(bob.announce(t, w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)), bob.state(t, w.id, math.MaxInt64, s.mainB))
	w.dir = s.alice.dir
	w.refused(alice, alice, 1000, cmdutil.ExitRefused, "state-order-impossible", "repo", "edit", "--add-maintainer", bob.npub(), "--force")
}

// "--force cannot turn incomplete discovery into evidence that overwriting
// is safe": a relay that does not answer is exit 4 with --force too.
func TestForceIsRefusedOnIncompleteDiscovery(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	w.seed(bob.announce(t, w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)), bob.state(t, w.id, 300, s.mainB))
	w.dir = s.alice.dir
	w.refused(alice, alice, 1000, cmdutil.ExitIncomplete, "incomplete", "repo", "edit", "--add-maintainer", bob.npub(), "--force", "--relay", "ws://127.0.0.1:1")
}

// "Verification compares state too": a state event that lands after the
// pre-signing recheck changes the resolved state, so the change is not
// reported verified (exit 6) and the problem names the event.
func TestVerificationComparesTheReReadState(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	late := alice.state(t, w.id, 900, s.mainB)
	w.seams.AfterPublish = func() { w.seed(late) }
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--json")
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Out, late.ID) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}
