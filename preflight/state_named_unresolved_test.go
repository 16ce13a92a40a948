package preflight

import (
	"slices"
	"strings"
	"testing"
)

// A preview's checked list says only what was really compared: when the
// named pubkey has an announcement but their own coordinate does not resolve
// them as a maintainer (here a pointer to a lead who never announced), their
// own state was not compared, so it is listed under not checked instead.
// Adding them does not confirm them, so their differing state stays out of
// the resolved state and the change is allowed.
func TestNamedStateThatCannotBeResolvedIsListedAsNotChecked(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200, []string{"M", "<carol>", "200"}, []string{"m", "<bob>", "200"})
	w.state("bob", 300, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	p, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	if slices.Contains(p.State.Checked, "the named pubkey's own resolved state") {
		t.Fatalf("listed as checked although nothing was compared: %q", p.State.Checked)
	}
	if !slices.ContainsFunc(p.State.NotChecked, func(s string) bool {
		return strings.HasPrefix(s, "the named pubkey's own state (") && strings.Contains(s, "lead pending")
	}) {
		t.Fatalf("not checked lacks the named pubkey's state: %q", p.State.NotChecked)
	}
	if slices.ContainsFunc(stateNotChecked, func(s string) bool { return strings.HasPrefix(s, "the named pubkey") }) {
		t.Fatal("the shared not-checked list was modified")
	}
}

// Without an announcement of their own the named pubkey has no state to
// compare, and the comparison is made (against nothing) and listed.
func TestNamedPubkeyWithoutAnnouncementIsComparedAndListed(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	p, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	if !slices.Contains(p.State.Checked, "the named pubkey's own resolved state") {
		t.Fatalf("checked %q", p.State.Checked)
	}
}
