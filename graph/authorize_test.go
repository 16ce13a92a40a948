package graph

import "testing"

// Authorization summary: "Invitee: no ... no ... no", and "An invitation is
// not effective maintainership." A lead who withdraws an invitation closes
// the assignment ([T1, T5]); that closed record is the lead's invitation,
// not an interval the invitee ever accepted, so it must not authorize the
// invitee's past status events. A former member's closed interval still
// does, because their own signed acceptance covers it.
func TestWithdrawnInvitationNeverAuthorizesPastEvents(t *testing.T) {
	alice := ann(t, "alice", 500, []string{"M", "<alice>"}, []string{"m", "<bob>", "200", "400"}, []string{"m", "<eve>", "100", "500"}, []string{"maintainers", "<alice>"})
	bob := ann(t, "bob", 450, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200", "400"})
	// Eve never accepted: no announcement of hers at all, or one without
	// any acknowledgement of this repository.
	for name, r := range map[string]*Resolution{
		"no announcement":       resolve(t, "alice", alice, bob),
		"never acknowledged":    resolve(t, "alice", alice, bob, ann(t, "eve", 150, []string{"name", "eve's own repo"})),
		"acknowledged too late": resolve(t, "alice", alice, bob, ann(t, "eve", 600, []string{"M", "<alice>", "450"}, []string{"m", "<eve>", "450", "460"})),
	} {
		if r.Authorized(pk("eve"), ActionStatus, 300) {
			t.Errorf("%s: a withdrawn invitee authorized a past status", name)
		}
		if !r.Authorized(pk("bob"), ActionStatus, 300) || r.Authorized(pk("bob"), ActionStatus, 450) {
			t.Errorf("%s: a former maintainer's accepted interval [200, 400) must still filter past events", name)
		}
	}
	// A former member whose announcement was deleted keeps the interval the
	// lead recorded (the deletion is their departure evidence).
	gone := del(t, "bob", 420, []string{"a", "30617:<bob>:" + testID})
	if r := resolve(t, "alice", alice, gone); !r.Authorized(pk("bob"), ActionStatus, 300) {
		t.Error("a deleted former member's recorded interval must still filter past events")
	}
	// While relays still serve the deleted announcement, it is read.
	if r := resolve(t, "alice", alice, bob, gone); !r.Authorized(pk("bob"), ActionStatus, 300) || r.Authorized(pk("bob"), ActionStatus, 150) {
		t.Error("a deleted but served announcement must be read as the member's acknowledgement")
	}
}

// "Once resolution follows a valid active M, a missing announcement,
// multiple active targets, or a cycle fails closed and seeds no authority."
// Past-event filtering is authority too: a pending or conflicting view
// authorizes nothing, even from the selected maintainer's closed records.
func TestFailedClosedViewAuthorizesNoPastEvents(t *testing.T) {
	// Alice points to Bob, whose announcement is missing; her own records
	// say Carol was a maintainer over [100, 300), and Carol acknowledged it.
	alice := ann(t, "alice", 400, []string{"M", "<bob>", "400"}, []string{"m", "<alice>", "400"}, []string{"m", "<carol>", "100", "300"}, []string{"maintainers", "<alice>", "<bob>"})
	carol := ann(t, "carol", 350, []string{"M", "<alice>", "100", "300"}, []string{"m", "<carol>", "100", "300"})
	r := resolve(t, "alice", alice, carol)
	if r.LeadSource != LeadPending {
		t.Fatalf("setup: %s", r.LeadSource)
	}
	for _, a := range []Action{ActionStatus, ActionLabel, ActionSubject, ActionCoverNote, ActionState} {
		if r.Authorized(pk("carol"), a, 200) || r.Authorized(pk("alice"), a, 200) {
			t.Errorf("%s authorized from a pending view", a)
		}
	}
	// The same records do filter past events once the path resolves.
	bob := ann(t, "bob", 400, []string{"M", "<bob>", "400"}, []string{"m", "<alice>", "400"})
	if r := resolve(t, "alice", alice, carol, bob); r.LeadSource != LeadExplicit || !r.Authorized(pk("carol"), ActionStatus, 200) {
		t.Fatalf("resolved view: %s", r.LeadSource)
	}
}

// GrantAt explains Authorized: the role and the interval that covered the
// time, the history record's author for a closed interval, or why not.
func TestGrantAtNamesTheCoveringInterval(t *testing.T) {
	r := resolve(t, "alice",
		ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>", "100", "300"}, []string{"o", "<dave>", "150"}, []string{"maintainers", "<alice>"}),
		ann(t, "bob", 100, []string{"M", "<alice>", "100"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"}),
		ann(t, "dave", 200, []string{"o", "<dave>", "200"}),
	)
	g := r.GrantAt(pk("bob"), ActionStatus, 200)
	if !g.Authorized || g.Role != "maintainer" || g.Current || g.Source != pk("alice") || g.Interval == nil || g.Interval.Start != 100 || g.Interval.EndTime != 300 {
		t.Fatalf("bob at 200: %+v", g)
	}
	if g := r.GrantAt(pk("bob"), ActionStatus, 300); g.Authorized || g.Reason != ReasonNoRole {
		t.Fatalf("bob at the removal: %+v", g)
	}
	if g := r.GrantAt(pk("dave"), ActionLabel, 250); !g.Authorized || g.Role != "moderator" || !g.Current || g.Interval.Start != 200 {
		t.Fatalf("dave at 250: %+v", g)
	}
	if g := r.GrantAt(pk("dave"), ActionLabel, 199); g.Authorized || g.Reason != ReasonBeforeStart {
		t.Fatalf("dave before his start: %+v", g)
	}
	if g := r.GrantAt(pk("dave"), ActionState, 250); g.Authorized || g.Reason != ReasonNotConfirmed {
		t.Fatalf("dave's state: %+v", g)
	}
}
