package graph

import "testing"

// maintainers.md "Legacy migration": "The maintainers fallback applies only
// when an announcement contains no indexed M, m, or o." An announcement
// whose only indexed record is an o is role-aware: its legacy listing of bob
// confers nothing (and is a projection mismatch), whereas the same listing
// without the o makes bob a legacy co-maintainer.
func TestLegacyListingIgnoredWhenAnyIndexedRoleIsPresent(t *testing.T) {
	bob := ann(t, "bob", 300, []string{"maintainers", "<alice>", "<bob>"})
	legacy := resolve(t, "alice", ann(t, "alice", 300, []string{"maintainers", "<alice>", "<bob>"}), bob)
	if !legacy.Confirmed(pk("bob")) {
		t.Fatalf("control: a pure legacy listing must confirm bob: %v", legacy.Component)
	}
	withO := resolveAs(t, "alice", "alice", ann(t, "alice", 300, []string{"o", "<dave>"}, []string{"maintainers", "<alice>", "<bob>"}), bob)
	if withO.Confirmed(pk("bob")) || withO.Authorized(pk("bob"), ActionState, 400) {
		t.Fatalf("an o-only role-aware announcement must not apply its legacy listing: %v", withO.Component)
	}
	if f := hasCode(withO, CodeProjectionMismatch, "alice"); f == nil {
		t.Fatalf("the listing no active M/m backs is a projection mismatch: %v", withO.Health)
	}
}
