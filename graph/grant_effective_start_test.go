package graph

import "testing"

// A role is effective from the later of its assignment and the subject's
// acknowledgement ("an acceptance does not authorize earlier events"), so
// a former maintainer's closed interval that the lead recorded from the
// invitation (100) begins, in the grant, at the acceptance (150).
func TestGrantOfAClosedIntervalStartsAtTheEffectiveStart(t *testing.T) {
	r := resolve(t, "alice",
		ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<bob>", "100", "300"}, []string{"maintainers", "<alice>"}),
		ann(t, "bob", 350, []string{"M", "<alice>", "150", "300"}, []string{"m", "<bob>", "150", "300"}),
	)
	g := r.GrantAt(pk("bob"), ActionStatus, 200)
	if !g.Authorized || g.Current || g.Interval == nil || g.Interval.Start != 150 || g.Interval.EndTime != 300 {
		t.Fatalf("bob at 200: %+v (interval %+v), want [150, 300)", g, g.Interval)
	}
	if g := r.GrantAt(pk("bob"), ActionStatus, 120); g.Authorized {
		t.Fatalf("bob before his acceptance: %+v", g)
	}
}
