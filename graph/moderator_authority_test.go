package graph

import "testing"

// maintainers.md "Moderators": "Moderator relationships never extend
// maintainer authority." and "moderator-authored role tags do not confer
// third-party roles." A confirmed moderator's active m (even reciprocated)
// confirms nobody, and its o appoints no further moderator.
func TestModeratorRoleTagsNeverExtendAuthority(t *testing.T) {
	r := resolve(t, "alice",
		ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"o", "<dave>"}, []string{"maintainers", "<alice>"}),
		ann(t, "dave", 300, []string{"o", "<dave>"}, []string{"m", "<erin>"}, []string{"o", "<frank>"}, []string{"maintainers", "<erin>"}),
		ann(t, "erin", 300, []string{"m", "<dave>"}, []string{"m", "<erin>"}, []string{"maintainers", "<dave>", "<erin>"}),
		ann(t, "frank", 300, []string{"o", "<frank>"}, []string{"maintainers"}),
	)
	if len(r.Moderators) != 1 || r.Moderators[0].Pubkey != pk("dave") || r.Moderators[0].Status != StatusConfirmed {
		t.Fatalf("moderators %+v, want dave confirmed only", r.Moderators)
	}
	if r.Confirmed(pk("dave")) || r.Confirmed(pk("erin")) || len(r.Component) != 1 {
		t.Fatalf("component %v: a moderator's m must not confirm anyone, nor make the moderator a maintainer", r.Component)
	}
	if r.Authorized(pk("erin"), ActionState, 400) || r.Authorized(pk("erin"), ActionStatus, 400) {
		t.Fatal("erin was authorized through a moderator's m")
	}
	if r.Authorized(pk("frank"), ActionStatus, 400) {
		t.Fatal("frank was made a moderator by a moderator's o")
	}
	if r.Authorized(pk("dave"), ActionState, 400) || !r.Authorized(pk("dave"), ActionStatus, 400) {
		t.Fatal("dave keeps exactly moderator authority")
	}
}
