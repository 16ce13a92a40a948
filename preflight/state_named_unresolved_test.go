package preflight

import (
	"slices"
	"strings"
	"testing"
)

// A preview's checked list says only what was really compared. Bob's
// announcement points at a lead who never announced, so it acknowledges
// nobody in Alice's component: adding him is a plain invitation, nobody
// becomes confirmed, his differing state stays out of the resolved state,
// and the preview says exactly that instead of claiming his state was
// compared.
func TestPlainInvitationSaysNoStateBecomesEligible(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200, []string{"M", "<carol>", "200"}, []string{"m", "<bob>", "200"})
	w.state("bob", 300, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	p, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	if slices.ContainsFunc(p.State.Checked, func(s string) bool { return strings.Contains(s, "latest state event") }) {
		t.Fatalf("claims a newly confirmed person's state was compared: %q", p.State.Checked)
	}
	if !slices.ContainsFunc(p.State.Checked, func(s string) bool { return strings.Contains(s, "a plain invitation") }) {
		t.Fatalf("checked %q", p.State.Checked)
	}
	if len(p.State.Eligibility) != 0 || p.State.Align == nil || p.State.ForceWould == nil {
		t.Fatalf("eligibility %+v align %v force_would %v (lists are never null)", p.State.Eligibility, p.State.Align, p.State.ForceWould)
	}
}

// An immediately confirming add names the person it compared, with the
// event it compared.
func TestConfirmingAddListsTheComparedStateEvent(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	p, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	want := npub(pk("bob")) + "'s latest state event (no state)"
	if !slices.ContainsFunc(p.State.Checked, func(s string) bool { return strings.HasPrefix(s, want) }) {
		t.Fatalf("checked %q", p.State.Checked)
	}
}
