package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// joinScene is a repository with real Git objects for membership changes
// that touch kind 30618 state: Alice's announcement advertises a bare
// repository over file://, her work repository (a checkout whose origin is
// her nostr:// URL) pushed main there and she published that as the state.
// Bob's own commit on main is on the server too (as refs/heads/bob), so a
// state naming it is fetchable.
type joinScene struct {
	w            *mutWorld
	bare         *gitWork
	url          string
	alice        *gitWork
	mainA, mainB string
}

func newJoinScene(t *testing.T) *joinScene {
	t.Helper()
	s := &joinScene{w: newMutWorld(t, 1), alice: newGitWork(t)}
	s.bare, s.url = newBareServer(t)
	s.mainA = s.alice.commit("first")
	s.alice.pushTo(s.bare, "main")
	s.alice.git("remote", "add", "origin", gitstate.NostrURL(alice.coord(s.w.id), nil))
	bob := s.clone()
	s.mainB = bob.commit("bob's work")
	bob.pushTo(s.bare, "main:refs/heads/bob")
	s.w.seed(alice.announce(t, s.w.id, 100, nostr.Tag{"clone", s.url}), alice.state(t, s.w.id, 110, s.mainA))
	return s
}

// clone is a plain `git clone` of the server whose origin then names
// Alice's coordinate, as git-remote-nostr leaves one.
func (s *joinScene) clone() *gitWork {
	parent := &gitWork{t: s.w.t, dir: s.w.t.TempDir()}
	parent.git("clone", "-q", s.url, "c")
	c := &gitWork{t: s.w.t, dir: filepath.Join(parent.dir, "c")}
	c.git("remote", "set-url", "origin", gitstate.NostrURL(alice.coord(s.w.id), nil))
	return c
}

// stored are the kind 30618 events author's relays store.
func (s *joinScene) stored(author person) []*nostr.Event {
	return s.w.relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindState}, Authors: []string{author.pk}})
}

// resolvedState is `roster repo state --json`'s state object.
func (s *joinScene) resolvedState(now int64) map[string]any {
	s.w.t.Helper()
	s.w.dir = s.w.t.TempDir()
	st, _ := s.w.ok(alice, alice, now, "repo", "state")["state"].(map[string]any)
	return st
}

func refAction(action, ref, from, to string) map[string]any {
	m := map[string]any{"action": action, "ref": ref}
	if from != "" {
		m["from"] = from
	}
	if to != "" {
		m["to"] = to
	}
	return m
}

// "Confirmation can activate pre-existing state" (an add that confirms
// immediately): Bob acknowledges Alice and his newer state differs. The
// plain add is a state-only conflict whose directions change Alice's
// repository to Bob's and the inverse; --force from Alice's checkout keeps
// her complete ref map: her fresh state event is published first, dated
// after every candidate, then the announcement, and the repository then
// resolves exactly the forced state.
func TestForcedAddPublishesTheRunnersCompleteStateBeforeTheAnnouncement(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	w.seed(bob.announce(t, w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)), bob.state(t, w.id, 300, s.mainB))
	w.dir = s.alice.dir
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", bob.npub())
	e := m["error"].(map[string]any)
	d := e["details"].(map[string]any)
	if !jsonEqual(d["align"], []any{refAction("update", "refs/heads/main", s.mainA, s.mainB)}) ||
		!jsonEqual(d["force_would"], []any{refAction("update", "refs/heads/main", s.mainB, s.mainA)}) {
		t.Fatalf("directions %v", d)
	}
	if cmds := strings.Join(toStrings(e["commands"]), "\n"); !strings.Contains(cmds, "roster repo state publish") || !strings.Contains(cmds, "--add-maintainer "+bob.npub()+" --force") {
		t.Fatalf("commands %s", cmds)
	}

	m = w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--force")
	sp := m["state_published"].(map[string]any)
	if sp["forced"] != true || sp["reason"] != "force" {
		t.Fatalf("state_published %v", sp)
	}
	pub := toStrings(m["published"])
	if len(pub) != 2 || pub[0] != sp["event_id"] {
		t.Fatalf("published %v: the forced state goes first", pub)
	}
	var forced *nostr.Event
	for _, e := range s.stored(alice) {
		if e.ID == sp["event_id"] {
			forced = e
		}
	}
	if forced == nil || forced.CreatedAt <= 300 || forced.Tags.GetFirst([]string{"refs/heads/main"}).Value() != s.mainA ||
		forced.Tags.GetFirst([]string{"HEAD"}).Value() != "ref: refs/heads/main" {
		t.Fatalf("forced state %v", forced)
	}
	if st := s.resolvedState(1001); st["event_id"] != forced.ID {
		t.Fatalf("resolves %v, want the forced %s", st, forced.ID)
	}
	if got := members(t, m); got["bob"] != "confirmed" {
		t.Fatalf("members %v", got)
	}
}

// "The comparison includes Bob's latest state even when it predates the
// invitation": his state is older than Alice's, so hers would win and
// silently discard his. The add is refused with both directions and stores
// nothing.
func TestConfirmingAddRefusesWhenTheInvitingStateWouldDiscardTheInviteesOlderState(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	w.seed(bob.state(t, w.id, 50, s.mainB), bob.announce(t, w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)))
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", bob.npub())
	d := m["error"].(map[string]any)["details"].(map[string]any)
	if !jsonEqual(d["align"], []any{refAction("update", "refs/heads/main", s.mainA, s.mainB)}) {
		t.Fatalf("align %v", d["align"])
	}
}

// "Unacknowledged invitation ... Only an invitation is added": Bob's own,
// differing repository state never blocks it.
func TestPlainInvitationIsNotBlockedByTheInviteesDifferingState(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	w.seed(bob.announce(t, w.id, 200, nostr.Tag{"clone", s.url}), bob.state(t, w.id, 300, s.mainB))
	m := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	if got := members(t, m); got["bob"] != "invited" {
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
	s := newJoinScene(t)
	w := s.w
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	co := s.clone()
	mainC := co.commit("bob's unpublished work")
	w.dir = co.dir
	m := w.refused(bob, alice, 2000, cmdutil.ExitRefused, "state-conflict", "repo", "accept")
	d := m["error"].(map[string]any)["details"].(map[string]any)
	if !jsonEqual(d["align"], []any{refAction("update", "refs/heads/main", mainC, s.mainA)}) ||
		!jsonEqual(d["force_would"], []any{refAction("update", "refs/heads/main", s.mainA, mainC)}) {
		t.Fatalf("directions %v", d)
	}
	w.refused(bob, alice, 2000, cmdutil.ExitRefused, "objects-unavailable", "repo", "accept", "--force")

	co.pushTo(s.bare, "main:refs/heads/bob-local")
	m = w.ok(bob, alice, 2000, "repo", "accept", "--force")
	sp := m["state_published"].(map[string]any)
	if sp["forced"] != true {
		t.Fatalf("state_published %v", sp)
	}
	st := s.stored(bob)
	if len(st) != 1 || st[0].ID != sp["event_id"] || st[0].Tags.GetFirst([]string{"refs/heads/main"}).Value() != mainC {
		t.Fatalf("stored state %v", st)
	}
	if got := s.resolvedState(2001); got["event_id"] != st[0].ID {
		t.Fatalf("resolves %v", got)
	}
}

// "Removal hands resolved state to a remaining maintainer": Bob authored
// the event supplying the state, so removing him first publishes the same
// state signed by Alice, dated after every candidate, and only then the
// removal; the repository keeps resolving the same refs.
func TestRemovalOfTheStateAuthorHandsTheStateToTheRemover(t *testing.T) {
	t.Parallel()
	s := acceptedBob(t)
	w := s.w
	w.seed(bob.state(t, w.id, 2200, s.mainB))
	m := w.ok(alice, alice, 3000, "repo", "edit", "--remove-maintainer", bob.npub())
	sp := m["state_published"].(map[string]any)
	if sp["reason"] != "handoff" || sp["forced"] != false {
		t.Fatalf("state_published %v", sp)
	}
	var handoff *nostr.Event
	for _, e := range s.stored(alice) {
		if e.ID == sp["event_id"] {
			handoff = e
		}
	}
	if handoff == nil || handoff.CreatedAt <= 2200 || handoff.Tags.GetFirst([]string{"refs/heads/main"}).Value() != s.mainB {
		t.Fatalf("handoff %v", handoff)
	}
	if got := members(t, m); got["bob"] != "" {
		t.Fatalf("members %v", got)
	}
	if st := s.resolvedState(3001); st["event_id"] != handoff.ID {
		t.Fatalf("resolves %v", st)
	}
}

// "Failure at any stage leaves the membership unchanged": every relay
// refuses the handoff, so the removal is never published.
func TestRemovalIsNeverPublishedWhenTheHandoffFails(t *testing.T) {
	t.Parallel()
	s := acceptedBob(t)
	w := s.w
	w.seed(bob.state(t, w.id, 2200, s.mainB))
	before := w.latest(alice)
	w.relays[0].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
		if e.Kind == graph.KindState {
			return "blocked: no state events here"
		}
		return ""
	}})
	r := w.run(alice, alice, 3000, "repo", "edit", "--remove-maintainer", bob.npub(), "--json")
	if r.Code != cmdutil.ExitFailure || !strings.Contains(r.Out, `"state-publish-failed"`) || !strings.Contains(r.Out, "the membership is unchanged") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if after := w.latest(alice); after != before {
		t.Fatalf("the removal was published:\n%s\n%s", before, after)
	}
}

// "If a remaining maintainer already authored the event supplying the
// post-removal resolved state, no handoff event is needed."
func TestRemovalWithAnEquivalentStateFromTheRemoverPublishesNoHandoff(t *testing.T) {
	t.Parallel()
	s := acceptedBob(t)
	w := s.w
	same := alice.state(t, w.id, 2100, s.mainB)
	w.seed(same, bob.state(t, w.id, 2200, s.mainB))
	m := w.ok(alice, alice, 3000, "repo", "edit", "--remove-maintainer", bob.npub())
	if m["state_published"] != nil || len(toStrings(m["published"])) != 1 {
		t.Fatalf("state_published %v published %v", m["state_published"], m["published"])
	}
	if st := s.resolvedState(3001); st["event_id"] != same.ID {
		t.Fatalf("resolves %v, want Alice's equivalent %s", st, same.ID)
	}
}

// The author of the current state cannot leave without someone else
// carrying it: refused with its own code and words, nothing stored.
func TestLeaveByTheStateAuthorIsRefusedWithItsOwnCode(t *testing.T) {
	t.Parallel()
	s := acceptedBob(t)
	w := s.w
	w.seed(bob.state(t, w.id, 2200, s.mainB))
	m := w.refused(bob, alice, 3000, cmdutil.ExitRefused, "state-author-leaving", "repo", "leave")
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "you authored the current state") || !strings.Contains(msg, "roster repo state publish") || strings.Contains(msg, "--force") {
		t.Fatal(msg)
	}
}

// acceptedBob: Alice invited Bob, he accepted outside a checkout, she
// acknowledged him.
func acceptedBob(t *testing.T) *joinScene {
	s := newJoinScene(t)
	w := s.w
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	w.ok(bob, alice, 2000, "repo", "accept")
	w.ok(alice, alice, 2050, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	return s
}

// "Equivalent state events may have different authors or event IDs; that
// difference is safe": Bob's newer state names the same refs, so the
// confirming add goes through and the repository resolves his event.
func TestConfirmingAddWithAnEquivalentStateFromAnotherAuthorSucceeds(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	same := bob.state(t, w.id, 300, s.mainA)
	w.seed(bob.announce(t, w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)), same)
	m := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	if got := members(t, m); got["bob"] != "confirmed" || m["state_published"] != nil {
		t.Fatalf("members %v state_published %v", got, m["state_published"])
	}
	if st := s.resolvedState(1001); st["event_id"] != same.ID {
		t.Fatalf("resolves %v, want Bob's equivalent %s", st, same.ID)
	}
}

// The invitee's older state wins when the inviting state was deleted
// (NIP-09): read and write apply the deletion by one rule, so `repo state`
// shows no state and the confirming add reports that Bob's state would
// become the repository's.
func TestConfirmingAddAfterTheInvitingStateWasDeletedActivatesTheInviteesOlderState(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	var aliceState *nostr.Event
	for _, e := range s.stored(alice) {
		aliceState = e
	}
	w.seed(alice.sign(t, 5, 120, nostr.Tag{"e", aliceState.ID}, nostr.Tag{"k", "30618"}),
		bob.state(t, w.id, 50, s.mainB), bob.announce(t, w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)))
	if st := s.resolvedState(900); st != nil {
		t.Fatalf("the deleted state is still resolved: %v", st)
	}
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "state-conflict", "repo", "edit", "--add-maintainer", bob.npub())
	d := m["error"].(map[string]any)["details"].(map[string]any)
	if !jsonEqual(d["align"], []any{refAction("add", "refs/heads/main", "", s.mainB)}) {
		t.Fatalf("align %v", d["align"])
	}
}
