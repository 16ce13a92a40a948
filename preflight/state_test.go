package preflight

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/golden"
	"github.com/roster-cli/roster/graph"
)

// testSelectState mirrors the command's state selection for tests: the
// newest state event from a confirmed maintainer.
func testSelectState(events []*nostr.Event, r *graph.Resolution) *ResolvedState {
	var best *nostr.Event
	for _, e := range events {
		if e.Kind == graph.KindState && r.Confirmed(e.PubKey) && (best == nil || graph.Newer(e, best)) {
			best = e
		}
	}
	if best == nil {
		return nil
	}
	s := &ResolvedState{EventID: best.ID, Author: best.PubKey, Refs: map[string]string{}}
	for _, t := range best.Tags {
		switch {
		case len(t) >= 2 && t[0] == "HEAD":
			s.Head = strings.TrimPrefix(t[1], "ref: ")
		case len(t) >= 2 && strings.HasPrefix(t[0], "refs/"):
			s.Refs[t[0]] = t[1]
		}
	}
	return s
}

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
		Intent: it, SelectState: testSelectState, LocalRefs: local})
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
		"remove branch refs/heads/exp", "--force is refused"} {
		if !strings.Contains(r.Message, s) {
			t.Fatalf("message lacks %q:\n%s", s, r.Message)
		}
	}
	_, r = w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob"), Force: true}, nil)
	if r == nil || r.Code != "state-conflict" {
		t.Fatalf("--force must not publish the state replacement yet: %+v", r)
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
// repository's resolved state ... If it cannot reproduce ... removal fails."
func TestRemovalOfStateAuthorRefusedUntilHandoffExists(t *testing.T) {
	w := twoPerson(t)
	w.state("bob", 2500, []string{"refs/heads/main", oidA})
	_, r := w.prepareState("alice", 3000, Intent{Action: ActRemove, Subject: pk("bob")}, nil)
	if r == nil || r.Code != "state-handoff-required" {
		t.Fatalf("want state-handoff-required, got %+v", r)
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
