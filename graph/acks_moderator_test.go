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
