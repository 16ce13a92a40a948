package preflight

import (
	"math"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/golden"
	"github.com/roster-cli/roster/graph"
)

func (w *world) state(author string, created int64, refs ...[]string) {
	evt := &nostr.Event{Kind: graph.KindState, CreatedAt: nostr.Timestamp(created), Tags: nostr.Tags{{"d", repoID}}}
	for _, r := range refs {
		evt.Tags = append(evt.Tags, r)
	}
	if err := evt.Sign(golden.SecretKey(author)); err != nil {
		w.t.Fatal(err)
	}
	w.events = append(w.events, evt)
}

func (w *world) prepareState(author string, now int64, it Intent, local map[string]string) (*Plan, *Refusal) {
	return Prepare(Input{Author: pk(author), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: now,
		Intent: it, LocalRefs: local})
}

const oidA, oidB = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

// "Confirmation can activate pre-existing state": an add that confirms Bob
// immediately while his newer state differs is a state-only conflict; it
// lists the alignment in both directions and --force is not available yet.
func TestAddRefusedWhenConfirmationChangesResolvedState(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	w.state("bob", 300, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB}, []string{"refs/heads/exp", oidB})
	_, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r == nil || r.Code != "state-conflict" {
		t.Fatalf("want state-conflict, got %+v", r)
	}
	for _, s := range []string{"repository state differs", "add branch refs/heads/exp at " + oidB, "update branch refs/heads/main from " + oidA + " to " + oidB,
		"--force would remove branch exp and move branch main from " + oidB + " to " + oidA + " in the repository state", "roster repo state publish", "--force needs your checkout"} {
		if !strings.Contains(r.Message, s) {
			t.Fatalf("message lacks %q:\n%s", s, r.Message)
		}
	}
	// --force keeps the runner's checkout; outside one there is nothing to keep.
	_, r = w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob"), Force: true}, nil)
	if r == nil || r.Code != "force-needs-checkout" {
		t.Fatalf("--force outside a checkout: %+v", r)
	}
}

// Equivalent state events from different authors are compatible.
func TestAddAllowedWhenStatesAreEquivalent(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	w.state("bob", 300, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	p, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r != nil {
		t.Fatalf("refused: %s", r.Message)
	}
	if len(p.State.Checked) == 0 || len(p.State.NotChecked) == 0 {
		t.Fatal("the seam must say what it checked and what it did not")
	}
}

// "If Bob authored the kind 30618 event that currently supplies the
// repository's resolved state, the client hands that state to a remaining
// maintainer before removing him": the plan publishes the same default
// branch and complete ref map, signed by the remover, dated after every
// candidate.
func TestRemovalOfStateAuthorPlansAnEquivalentHandoff(t *testing.T) {
	w := twoPerson(t)
	w.state("alice", 2400, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	w.state("bob", 2500, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	p, r := w.prepareState("alice", 3000, Intent{Action: ActRemove, Subject: pk("bob")}, nil)
	if r != nil {
		t.Fatalf("refused: %s %s", r.Code, r.Message)
	}
	pub := p.State.Publish
	if pub == nil || pub.Reason != PublishHandoff || pub.Head != "refs/heads/main" || pub.Refs["refs/heads/main"] != oidA || pub.NotBefore != 2501 {
		t.Fatalf("handoff %+v", pub)
	}
	if a := p.State.After; a == nil || a.Author != pk("alice") || a.Refs["refs/heads/main"] != oidA {
		t.Fatalf("after %+v", a)
	}
}

// "If a remaining maintainer already authored the event supplying the
// post-removal resolved state, no handoff event is needed."
func TestRemovalWithAnEquivalentRemainingStateNeedsNoHandoff(t *testing.T) {
	w := twoPerson(t)
	w.state("alice", 2400, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.state("bob", 2500, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	p, r := w.prepareState("alice", 3000, Intent{Action: ActRemove, Subject: pk("bob")}, nil)
	if r != nil {
		t.Fatalf("refused: %s %s", r.Code, r.Message)
	}
	if p.State.Publish != nil || !strings.Contains(strings.Join(p.State.Checked, "\n"), "no handoff is needed") {
		t.Fatalf("publish %+v checked %q", p.State.Publish, p.State.Checked)
	}
	if got := p.State.Eligibility; len(got) != 1 || got[0].Change != "ceases-to-be-eligible" || got[0].Author != npub(pk("bob")) {
		t.Fatalf("eligibility %+v", got)
	}
}

// The state author's own leave would drop the state they supply: refused
// with its own code and words, never add wording or --force advice.
func TestLeaveByTheStateAuthorIsRefusedWithItsOwnWords(t *testing.T) {
	w := twoPerson(t)
	w.state("alice", 2400, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	w.state("bob", 2500, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	_, r := w.prepareState("bob", 3000, Intent{Action: ActLeave}, nil)
	if r == nil || r.Code != "state-author-leaving" {
		t.Fatalf("want state-author-leaving, got %+v", r)
	}
	if !strings.Contains(r.Message, "you authored the current state") || !strings.Contains(r.Message, "roster repo state publish") ||
		strings.Contains(r.Message, "add this maintainer") || strings.Contains(r.Message, "--force") {
		t.Fatal(r.Message)
	}
}

// "Unacknowledged invitation. Bob does not acknowledge Alice's component.
// Only an invitation is added": Bob's differing state never blocks it.
func TestPlainInvitationIsNeverBlockedByTheInviteesState(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200) // his own repository, acknowledging nobody
	w.state("bob", 300, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	p, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r != nil {
		t.Fatalf("a plain invitation was refused: %s %s", r.Code, r.Message)
	}
	if !strings.Contains(strings.Join(p.State.Checked, "\n"), "a plain invitation") {
		t.Fatalf("checked %q", p.State.Checked)
	}
}

// "The comparison includes Bob's latest state even when it predates the
// invitation": Bob's coordinate resolves nobody (pending), his older state
// loses by time, yet confirming him would discard it, so the add is a
// state-only conflict whose directions change Alice's repository to Bob's.
func TestConfirmationComparesTheNewlyConfirmedPersonsOlderState(t *testing.T) {
	w := &world{t: t}
	w.state("bob", 50, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	_, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r == nil || r.Code != "state-conflict" {
		t.Fatalf("want state-conflict, got %+v", r)
	}
	align, force := r.Details["align"].([]RefAction), r.Details["force_would"].([]RefAction)
	if len(align) != 1 || align[0] != (RefAction{Action: "update", Ref: "refs/heads/main", From: oidA, To: oidB}) ||
		len(force) != 1 || force[0] != (RefAction{Action: "update", Ref: "refs/heads/main", From: oidB, To: oidA}) {
		t.Fatalf("align %+v force_would %+v", align, force)
	}
}

// Bob accepts with no announcement of his own: his older, differing state
// is still compared, and the directions change his repository to the
// inviting one.
func TestAcceptWithoutAnAnnouncementComparesTheInviteesState(t *testing.T) {
	w := &world{t: t}
	w.state("bob", 50, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB}, []string{"refs/tags/exp", oidB})
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	_, r := w.prepareState("bob", 2000, Intent{Action: ActAccept}, nil)
	if r == nil || r.Code != "state-conflict" {
		t.Fatalf("want state-conflict, got %+v", r)
	}
	align := r.Details["align"].([]RefAction)
	want := []RefAction{{Action: "update", Ref: "refs/heads/main", From: oidB, To: oidA}, {Action: "remove", Ref: "refs/tags/exp", From: oidB}}
	if len(align) != 2 || align[0] != want[0] || align[1] != want[1] {
		t.Fatalf("align %+v", align)
	}
}

// --force on an accept from a checkout whose refs are the only conflict
// plans the checkout's complete ref map as the post-confirmation state,
// dated after every candidate; a candidate at the largest time refuses it.
func TestForcePlansTheCheckoutsCompleteStateAfterEveryCandidate(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	w.state("carol", 1500, []string{"refs/heads/main", oidA}) // not a maintainer, still a candidate the preview read
	local := map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": oidB, "refs/heads/topic": oidB}
	p, r := w.prepareState("bob", 2000, Intent{Action: ActAccept, Force: true}, local)
	if r != nil {
		t.Fatalf("refused: %s %s", r.Code, r.Message)
	}
	pub := p.State.Publish
	if pub == nil || pub.Reason != PublishForce || pub.NotBefore != 1501 || len(pub.Refs) != 2 || pub.Refs["refs/heads/topic"] != oidB || pub.Head != "refs/heads/main" {
		t.Fatalf("publish %+v", pub)
	}
	if got := p.State.ForceWould; len(got) != 2 {
		t.Fatalf("force_would %+v", got)
	}
	evt := &nostr.Event{Kind: graph.KindState, CreatedAt: nostr.Timestamp(math.MaxInt64), Tags: nostr.Tags{{"d", repoID}}}
	if err := evt.Sign(golden.SecretKey("alice")); err != nil {
		t.Fatal(err)
	}
	w.events = append(w.events, evt)
	if _, r := w.prepareState("bob", 2000, Intent{Action: ActAccept, Force: true}, local); r == nil || r.Code != "state-order-impossible" {
		t.Fatalf("want state-order-impossible, got %+v", r)
	}
}

// A state branch missing locally but tracked by the selected nostr remote
// at the same OID is aligned: a plain clone is not a conflict.
func TestAcceptCountsTrackedBranchesAsAligned(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA}, []string{"refs/heads/dev", oidB})
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	local := map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": oidA}
	in := Input{Author: pk("bob"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 2000,
		Intent: Intent{Action: ActAccept}, LocalRefs: local, Tracking: []TrackingRef{{Remote: "origin", Ref: "refs/heads/dev", OID: oidB}}}
	if _, r := Prepare(in); r != nil {
		t.Fatalf("a plain clone was refused: %s", r.Message)
	}
	in.Tracking = nil
	if _, r := Prepare(in); r == nil || r.Code != "state-conflict" {
		t.Fatalf("a missing branch must conflict: %+v", r)
	}
}

// "An explicit repo accept compares those local refs before confirmation".
func TestAcceptComparesLocalRefs(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	local := map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": oidB}
	_, r := w.prepareState("bob", 2000, Intent{Action: ActAccept}, local)
	if r == nil || r.Code != "state-conflict" || !strings.Contains(r.Message, "cannot accept this maintainer invitation") {
		t.Fatalf("want state-conflict, got %+v", r)
	}
	local["refs/heads/main"] = oidA
	if _, r := w.prepareState("bob", 2000, Intent{Action: ActAccept}, local); r != nil {
		t.Fatalf("aligned local refs refused: %s", r.Message)
	}
}

// "Membership preflight rechecks every announcement and kind 30618 event ID
// used by the preview immediately before signing."
func TestFingerprintNamesEveryChangedEvent(t *testing.T) {
	w := twoPerson(t)
	before := Fingerprint(w.events)
	w.state("bob", 2500, []string{"refs/heads/main", oidA})
	w.announce("carol", 2600)
	changed := FingerprintChanges(before, Fingerprint(w.events))
	if len(changed) != 2 || !strings.HasPrefix(changed[0], "30617:") || !strings.HasPrefix(changed[1], "30618:") {
		t.Fatalf("changes %v", changed)
	}
	if c := FingerprintChanges(before, before); len(c) != 0 {
		t.Fatalf("no change expected, got %v", c)
	}
}

// On accept with an announcement of his own, the directions are Bob's:
// align changes his repository (his state) to the inviting state, and
// force_would the inverse; neither list is empty or reversed.
func TestAcceptWithOwnAnnouncementListsBothDirectionsFromTheInvitee(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 120) // his own repository under the same identifier
	w.state("bob", 130, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	_, r := w.prepareState("bob", 2000, Intent{Action: ActAccept}, nil)
	if r == nil || r.Code != "state-conflict" {
		t.Fatalf("want state-conflict, got %+v", r)
	}
	align, force := r.Details["align"].([]RefAction), r.Details["force_would"].([]RefAction)
	if len(align) != 1 || align[0] != (RefAction{Action: "update", Ref: "refs/heads/main", From: oidB, To: oidA}) ||
		len(force) != 1 || force[0] != (RefAction{Action: "update", Ref: "refs/heads/main", From: oidA, To: oidB}) {
		t.Fatalf("align %+v force_would %+v", align, force)
	}
}
