package graph

import "testing"

// "A valid kind 5 request deleting Carol's announcement has the same
// presentation rule with stronger wording: show that Carol deleted
// <carol>/<identifier> at the deletion event's created_at ... If relays no
// longer retain that announcement, the coordinate and signed deletion
// evidence still support the lifecycle notice even though the unavailable
// fields cannot be reconstructed."
func TestDeletionWithoutTheAnnouncementStillPresentsDeleted(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<carol>", "300"}, []string{"maintainers", "<alice>", "<carol>"})
	gone := del(t, "carol", 430, []string{"a", "30617:<carol>:" + testID})
	r := resolve(t, "carol", alice, gone)
	if r.Lifecycle != (Lifecycle{Status: LifecycleDeleted, Actor: pk("carol"), Time: 430}) {
		t.Fatalf("lifecycle %+v, want deleted by carol at 430", r.Lifecycle)
	}
	if r.LeadSource != LeadNone || hasCode(r, CodeLeadPending, "") != nil || r.LastSnapshot != nil {
		t.Fatalf("a deleted coordinate is not a pending one: %s %v", r.LeadSource, r.Health)
	}
	if len(r.Component) != 0 || r.Authorized(pk("carol"), ActionState, 500) || r.Authorized(pk("alice"), ActionState, 500) {
		t.Fatalf("the deletion notice must not grant authority: %v", r.Component)
	}

	// The deletion evidence also closes history and fails the lead walk
	// closed, exactly like a deletion whose announcement is still served.
	r = resolve(t, "alice", alice, gone)
	if e := historyOf(r, "carol", "m"); e == nil || e.Intervals[0].End != EndDeletion || e.Intervals[0].EndTime != 430 {
		t.Fatalf("history end: %+v", e)
	}
	bob := ann(t, "bob", 500, []string{"M", "<carol>", "500"}, []string{"m", "<bob>", "500"})
	r = resolve(t, "bob", alice, bob, gone)
	if r.LeadSource != LeadConflict || len(r.LeadPath) != 2 || r.LeadPath[1] != pk("carol") {
		t.Fatalf("pointer to a deleted coordinate: %s %v", r.LeadSource, r.LeadPath)
	}
}

// NIP-09: an `a` deletion covers the versions up to its created_at only; a
// later announcement is a live republication. Another author's deletion,
// another identifier or kind, and an `e` deletion whose target is unknown
// prove nothing about this coordinate.
func TestDeletionWithoutTheAnnouncementNeedsMatchingAddress(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<carol>", "300"})
	later := ann(t, "carol", 500, []string{"M", "<alice>", "500"}, []string{"m", "<carol>", "500"})
	r := resolve(t, "carol", alice, later, del(t, "carol", 430, []string{"a", "30617:<carol>:" + testID}))
	if r.Lifecycle.Status != LifecycleActive || r.LeadSource != LeadExplicit {
		t.Fatalf("republished after the deletion: %+v %s", r.Lifecycle, r.LeadSource)
	}
	for name, d := range map[string][]string{
		"another author":     {"a", "30617:<carol>:" + testID},
		"another identifier": {"a", "30617:<carol>:other"},
		"another kind":       {"a", "30618:<carol>:" + testID},
		"unknown event":      {"e", "00000000000000000000000000000000000000000000000000000000000000aa"},
	} {
		author := "carol"
		if name == "another author" {
			author = "mallory"
		}
		r := resolve(t, "carol", alice, del(t, author, 430, d))
		if r.Lifecycle.Status != LifecycleActive || r.LeadSource != LeadPending {
			t.Errorf("%s: %+v %s, want a missing (pending) announcement", name, r.Lifecycle, r.LeadSource)
		}
	}
}
