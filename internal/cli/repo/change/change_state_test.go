package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// "Confirmation can activate pre-existing state" (an add that confirms
// immediately): Bob acknowledges Alice and his newer state differs. The
// plain add is a state-only conflict whose directions change Alice's
// repository to Bob's and the inverse; --force from Alice's checkout keeps
// her complete ref map: her fresh state event is published first, dated
// after every candidate, then the announcement, and the repository then
// resolves exactly the forced state.
func TestForcedAddPublishesTheRunnersCompleteStateBeforeTheAnnouncement(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Seed(clitest.Bob.Announce(t, w.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)), clitest.Bob.State(t, w.Id, 300, s.MainB))
	w.Dir = s.Alice.Dir
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	e := m["error"].(map[string]any)
	d := e["details"].(map[string]any)
	if !clitest.JsonEqual(d["align"], []any{clitest.RefAction("update", "refs/heads/main", s.MainA, s.MainB)}) ||
		!clitest.JsonEqual(d["force_would"], []any{clitest.RefAction("update", "refs/heads/main", s.MainB, s.MainA)}) {
		t.Fatalf("directions %v", d)
	}
	if cmds := strings.Join(clitest.ToStrings(e["commands"]), "\n"); !strings.Contains(cmds, "roster repo state publish") || !strings.Contains(cmds, "--add-maintainer "+clitest.Bob.Npub()+" --force") {
		t.Fatalf("commands %s", cmds)
	}

	m = w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force")
	sp := m["state_published"].(map[string]any)
	if sp["forced"] != true || sp["reason"] != "force" {
		t.Fatalf("state_published %v", sp)
	}
	pub := clitest.ToStrings(m["published"])
	if len(pub) != 2 || pub[0] != sp["event_id"] {
		t.Fatalf("published %v: the forced state goes first", pub)
	}
	var forced *nostr.Event
	for _, e := range s.Stored(clitest.Alice) {
		if e.ID == sp["event_id"] {
			forced = e
		}
	}
	if forced == nil || forced.CreatedAt <= 300 || forced.Tags.GetFirst([]string{"refs/heads/main"}).Value() != s.MainA ||
		forced.Tags.GetFirst([]string{"HEAD"}).Value() != "ref: refs/heads/main" {
		t.Fatalf("forced state %v", forced)
	}
	if st := s.ResolvedState(1001); st["event_id"] != forced.ID {
		t.Fatalf("resolves %v, want the forced %s", st, forced.ID)
	}
	if got := clitest.Members(t, m); got["bob"] != "confirmed" {
		t.Fatalf("members %v", got)
	}
}

// "The comparison includes Bob's latest state even when it predates the
// invitation": his state is older than Alice's, so hers would win and
// silently discard his. The add is refused with both directions and stores
// nothing.
func TestConfirmingAddRefusesWhenTheInvitingStateWouldDiscardTheInviteesOlderState(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Seed(clitest.Bob.State(t, w.Id, 50, s.MainB), clitest.Bob.Announce(t, w.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	d := m["error"].(map[string]any)["details"].(map[string]any)
	if !clitest.JsonEqual(d["align"], []any{clitest.RefAction("update", "refs/heads/main", s.MainA, s.MainB)}) {
		t.Fatalf("align %v", d["align"])
	}
}

// "Unacknowledged invitation ... Only an invitation is added": Bob's own,
// differing repository state never blocks it.
func TestPlainInvitationIsNotBlockedByTheInviteesDifferingState(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Seed(clitest.Bob.Announce(t, w.Id, 200, nostr.Tag{"clone", s.Url}), clitest.Bob.State(t, w.Id, 300, s.MainB))
	m := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if got := clitest.Members(t, m); got["bob"] != "invited" {
		t.Fatalf("members %v", got)
	}
}

// "A local repository diverges without a state event": Bob has no state of
// his own but his checkout's main differs, so accept lists what to change
// in it; --force needs every chosen OID on a Git server (unavailable
// objects refuse it, nothing stored); once pushed, --force publishes his
// checkout's state before his announcement and the repository resolves it.
func TestForcedAcceptChecksObjectsThenPublishesTheCheckoutsState(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	co := s.Clone()
	mainC := co.Commit("bob's unpublished work")
	w.Dir = co.Dir
	m := w.Refused(clitest.Bob, clitest.Alice, 2000, cmdutil.ExitRefused, "state-conflict", "repo", "accept")
	d := m["error"].(map[string]any)["details"].(map[string]any)
	if !clitest.JsonEqual(d["align"], []any{clitest.RefAction("update", "refs/heads/main", mainC, s.MainA)}) ||
		!clitest.JsonEqual(d["force_would"], []any{clitest.RefAction("update", "refs/heads/main", s.MainA, mainC)}) {
		t.Fatalf("directions %v", d)
	}
	w.Refused(clitest.Bob, clitest.Alice, 2000, cmdutil.ExitRefused, "objects-unavailable", "repo", "accept", "--force")

	co.PushTo(s.Bare, "main:refs/heads/bob-local")
	m = w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept", "--force")
	sp := m["state_published"].(map[string]any)
	if sp["forced"] != true {
		t.Fatalf("state_published %v", sp)
	}
	st := s.Stored(clitest.Bob)
	if len(st) != 1 || st[0].ID != sp["event_id"] || st[0].Tags.GetFirst([]string{"refs/heads/main"}).Value() != mainC {
		t.Fatalf("stored state %v", st)
	}
	if got := s.ResolvedState(2001); got["event_id"] != st[0].ID {
		t.Fatalf("resolves %v", got)
	}
}

// "Removal hands resolved state to a remaining maintainer": Bob authored
// the event supplying the state, so removing him first publishes the same
// state signed by Alice, dated after every candidate, and only then the
// removal; the repository keeps resolving the same refs.
func TestRemovalOfTheStateAuthorHandsTheStateToTheRemover(t *testing.T) {
	t.Parallel()
	s := clitest.AcceptedBob(t)
	w := s.W
	w.Seed(clitest.Bob.State(t, w.Id, 2200, s.MainB))
	m := w.Ok(clitest.Alice, clitest.Alice, 3000, "repo", "edit", "--remove-maintainer", clitest.Bob.Npub())
	sp := m["state_published"].(map[string]any)
	if sp["reason"] != "handoff" || sp["forced"] != false {
		t.Fatalf("state_published %v", sp)
	}
	var handoff *nostr.Event
	for _, e := range s.Stored(clitest.Alice) {
		if e.ID == sp["event_id"] {
			handoff = e
		}
	}
	if handoff == nil || handoff.CreatedAt <= 2200 || handoff.Tags.GetFirst([]string{"refs/heads/main"}).Value() != s.MainB {
		t.Fatalf("handoff %v", handoff)
	}
	if got := clitest.Members(t, m); got["bob"] != "" {
		t.Fatalf("members %v", got)
	}
	if st := s.ResolvedState(3001); st["event_id"] != handoff.ID {
		t.Fatalf("resolves %v", st)
	}
}

// "Failure at any stage leaves the membership unchanged": every relay
// refuses the handoff, so the removal is never published.
func TestRemovalIsNeverPublishedWhenTheHandoffFails(t *testing.T) {
	t.Parallel()
	s := clitest.AcceptedBob(t)
	w := s.W
	w.Seed(clitest.Bob.State(t, w.Id, 2200, s.MainB))
	before := w.Latest(clitest.Alice)
	w.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
		if e.Kind == graph.KindState {
			return "blocked: no state events here"
		}
		return ""
	}})
	r := w.Run(clitest.Alice, clitest.Alice, 3000, "repo", "edit", "--remove-maintainer", clitest.Bob.Npub(), "--json")
	if r.Code != cmdutil.ExitFailure || !strings.Contains(r.Out, `"state-publish-failed"`) || !strings.Contains(r.Out, "the membership is unchanged") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if after := w.Latest(clitest.Alice); after != before {
		t.Fatalf("the removal was published:\n%s\n%s", before, after)
	}
}

// "If a remaining maintainer already authored the event supplying the
// post-removal resolved state, no handoff event is needed."
func TestRemovalWithAnEquivalentStateFromTheRemoverPublishesNoHandoff(t *testing.T) {
	t.Parallel()
	s := clitest.AcceptedBob(t)
	w := s.W
	same := clitest.Alice.State(t, w.Id, 2100, s.MainB)
	w.Seed(same, clitest.Bob.State(t, w.Id, 2200, s.MainB))
	m := w.Ok(clitest.Alice, clitest.Alice, 3000, "repo", "edit", "--remove-maintainer", clitest.Bob.Npub())
	if m["state_published"] != nil || len(clitest.ToStrings(m["published"])) != 1 {
		t.Fatalf("state_published %v published %v", m["state_published"], m["published"])
	}
	if st := s.ResolvedState(3001); st["event_id"] != same.ID {
		t.Fatalf("resolves %v, want Alice's equivalent %s", st, same.ID)
	}
}

// The author of the current state cannot leave without someone else
// carrying it: refused with its own code and words, nothing stored.
func TestLeaveByTheStateAuthorIsRefusedWithItsOwnCode(t *testing.T) {
	t.Parallel()
	s := clitest.AcceptedBob(t)
	w := s.W
	w.Seed(clitest.Bob.State(t, w.Id, 2200, s.MainB))
	m := w.Refused(clitest.Bob, clitest.Alice, 3000, cmdutil.ExitRefused, "state-author-leaving", "repo", "leave")
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "you authored the current state") || !strings.Contains(msg, "roster repo state publish") || strings.Contains(msg, "--force") {
		t.Fatal(msg)
	}
}

// "Equivalent state events may have different authors or event IDs; that
// difference is safe": Bob's newer state names the same refs, so the
// confirming add goes through and the repository resolves his event.
func TestConfirmingAddWithAnEquivalentStateFromAnotherAuthorSucceeds(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	same := clitest.Bob.State(t, w.Id, 300, s.MainA)
	w.Seed(clitest.Bob.Announce(t, w.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)), same)
	m := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if got := clitest.Members(t, m); got["bob"] != "confirmed" || m["state_published"] != nil {
		t.Fatalf("members %v state_published %v", got, m["state_published"])
	}
	if st := s.ResolvedState(1001); st["event_id"] != same.ID {
		t.Fatalf("resolves %v, want Bob's equivalent %s", st, same.ID)
	}
}

// The invitee's older state wins when the inviting state was deleted
// (NIP-09): read and write apply the deletion by one rule, so `repo state`
// shows no state and the confirming add reports that Bob's state would
// become the repository's.
func TestConfirmingAddAfterTheInvitingStateWasDeletedActivatesTheInviteesOlderState(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	var aliceState *nostr.Event
	for _, e := range s.Stored(clitest.Alice) {
		aliceState = e
	}
	w.Seed(clitest.Alice.Sign(t, 5, 120, nostr.Tag{"e", aliceState.ID}, nostr.Tag{"k", "30618"}),
		clitest.Bob.State(t, w.Id, 50, s.MainB), clitest.Bob.Announce(t, w.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	if st := s.ResolvedState(900); st != nil {
		t.Fatalf("the deleted state is still resolved: %v", st)
	}
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	d := m["error"].(map[string]any)["details"].(map[string]any)
	if !clitest.JsonEqual(d["align"], []any{clitest.RefAction("add", "refs/heads/main", "", s.MainB)}) {
		t.Fatalf("align %v", d["align"])
	}
}
