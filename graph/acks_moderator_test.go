package graph

import (
	"strings"
	"testing"
)

// A co-maintainer's pending copy of a moderator interval is said as a
// moderator transition, never as a change of maintainership.
func TestModeratorTransitionIsNotCalledMaintainership(t *testing.T) {
	alice := ann(t, "alice", 500, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"o", "<dave>", "300", "500"})
	bob := ann(t, "bob", 400, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"o", "<dave>", "300", "defer"})
	dave := ann(t, "dave", 300, []string{"o", "<dave>", "300"}, []string{"maintainers"})
	r := resolveAs(t, "alice", "bob", alice, bob, dave)
	var found bool
	for _, p := range r.PendingAcknowledgements {
		if p.Author == pk("bob") && p.Pubkey == pk("dave") {
			found = true
			if !p.Moderator || p.Transition != TransitionEnd || p.Phrase() != "stopped being a moderator" {
				t.Fatalf("%+v", p)
			}
		}
	}
	if !found {
		t.Fatalf("bob's copy lacks the end: %+v", r.PendingAcknowledgements)
	}
	if f := hasCode(r, CodePendingAcknowledgement, "bob"); f == nil || strings.Contains(f.Message, "maintainership") {
		t.Fatalf("finding: %+v", f)
	}
}

// A confirmed moderator's active o is history a co-maintainer copies (as
// follow-lead does); an unacknowledged one is only an invitation.
func TestConfirmedModeratorIsPendingHistoryForCoMaintainers(t *testing.T) {
	alice := ann(t, "alice", 500, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"o", "<dave>", "300"})
	bob := ann(t, "bob", 400, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"})
	pending := func(daveAcknowledges bool) []PendingAck {
		var out []PendingAck
		r := resolveAs(t, "alice", "bob", alice, bob)
		if daveAcknowledges {
			r = resolveAs(t, "alice", "bob", alice, bob, ann(t, "dave", 350, []string{"o", "<dave>", "350"}))
		}
		for _, p := range r.PendingAcknowledgements {
			if p.Author == pk("bob") && p.Pubkey == pk("dave") {
				out = append(out, p)
			}
		}
		return out
	}
	if got := pending(false); len(got) != 0 {
		t.Fatalf("an invitation is not history: %+v", got)
	}
	got := pending(true)
	if len(got) != 1 || !got[0].Moderator || got[0].Transition != TransitionStart || got[0].Time != 300 || got[0].Phrase() != "became a moderator" {
		t.Fatalf("confirmed moderator: %+v", got)
	}
}
