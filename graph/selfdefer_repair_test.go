package graph

import "testing"

func selfDeferCommand(r *Resolution, alias string) (string, bool) {
	for _, f := range r.Health {
		if f.Code == CodeSelfDefer && f.Author == pk(alias) {
			return commandText(f.Command), true
		}
	}
	return "", false
}

// "If there is no superseding active role, the resolved lead still has an
// active invitation, and the invalid record satisfies the safe
// combined-repair shape above, read commands ... direct them to publish a
// valid acceptance: ngit repo accept." The shape: "one unique, simple
// [role, author, start, defer] maintainer record. It must have either no
// successor or one unambiguous signed successor boundary". "If there is no
// current invitation, or the history requires a separate repair, the client
// reports that fact instead of offering an acceptance command".
func TestSelfDeferAcceptRepairNeedsLeadInvitationAndUnambiguousSuccessor(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"})
	simple := ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200", "defer"}, []string{"maintainers", "<alice>"})
	if cmd, ok := selfDeferCommand(resolveAs(t, "alice", "bob", alice, simple), "bob"); !ok || cmd != CommandAccept().String() {
		t.Fatalf("the simple shape under the lead's invitation must offer accept: %q %v", cmd, ok)
	}
	// An untimed self-M cannot be ordered against the deferred interval:
	// no unambiguous signed successor boundary.
	untimed := ann(t, "bob", 200, []string{"M", "<bob>"}, []string{"m", "<bob>", "200", "defer"}, []string{"M", "<alice>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	if cmd, ok := selfDeferCommand(resolveAs(t, "alice", "bob", alice, untimed), "bob"); !ok || cmd != "" {
		t.Fatalf("an untimed successor is ambiguous; accept must not be offered: %q %v", cmd, ok)
	}
	// Only a co-maintainer's third-party m invites Carol; the resolved lead
	// has no invitation for her.
	aliceLeadsBob := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"})
	bob := ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "250"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	carol := ann(t, "carol", 260, []string{"M", "<alice>", "260"}, []string{"m", "<carol>", "260", "defer"}, []string{"maintainers", "<alice>"})
	if cmd, ok := selfDeferCommand(resolveAs(t, "alice", "carol", aliceLeadsBob, bob, carol), "carol"); !ok || cmd != "" {
		t.Fatalf("without the lead's invitation accept must not be offered: %q %v", cmd, ok)
	}
}
