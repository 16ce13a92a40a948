package main

import (
	"strings"
	"testing"
)

// "Confirmation can activate pre-existing state": Bob already acknowledges
// Alice and his newer state differs, so the add is a state-only conflict
// listing the ref changes both ways; --force is refused until the state
// replacement exists. Nothing is published.
func TestAddStateConflictEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	oidA, oidB := strings.Repeat("a", 40), strings.Repeat("b", 40)
	w.seed(alice.announce(t, w.id, 100), alice.state(t, w.id, 110, oidA),
		bob.announce(t, w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
		bob.state(t, w.id, 300, oidB))
	m := w.refused(alice, alice, 1000, exitRefused, "state-conflict", "repo", "edit", "--add-maintainer", bob.npub())
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "update branch refs/heads/main from "+oidA+" to "+oidB) || !strings.Contains(msg, "--force is refused") {
		t.Fatal(msg)
	}
	w.refused(alice, alice, 1000, exitRefused, "state-conflict", "repo", "edit", "--add-maintainer", bob.npub(), "--force")
}

// "If Bob authored the kind 30618 event that currently supplies the
// repository's resolved state ... If it cannot reproduce, order, or verify
// the same complete state, removal fails."
func TestRemovalOfStateAuthorRefusedEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	w.ok(bob, alice, 2000, "repo", "accept")
	w.seed(bob.state(t, w.id, 2100, strings.Repeat("c", 40)))
	w.refused(alice, alice, 3000, exitRefused, "state-handoff-required", "repo", "edit", "--remove-maintainer", bob.npub())
}
