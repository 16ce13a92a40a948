package graph

import "testing"

// maintainers.md "Required client invariants": "Every confirmed maintainer
// can replicate effective start and end intervals in M, m, or o." A
// co-maintainer's closed copies of a former lead M, a former co-maintainer m
// (ending in defer) and a former moderator o are history the resolution
// reports, sourced from that co-maintainer, with their signed boundaries;
// none of them authorizes its subject now.
func TestInvariantConfirmedMaintainersReplicateIntervalsInMmAndO(t *testing.T) {
	alice := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"})
	bob := ann(t, "bob", 400, []string{"M", "<alice>", "100"}, []string{"m", "<bob>", "100"},
		[]string{"M", "<carol>", "50", "90"}, []string{"m", "<erin>", "60", "defer"}, []string{"o", "<dave>", "150", "250"},
		[]string{"maintainers", "<alice>", "<bob>"})
	r := resolve(t, "alice", alice, bob)
	if !r.Confirmed(pk("bob")) {
		t.Fatal("bob must be a confirmed co-maintainer for his copies to count")
	}
	for _, c := range []struct {
		alias, role string
		start, end  int64
		ending      string
	}{
		{"carol", "M", 50, 90, EndSigned},
		{"dave", "o", 150, 250, EndSigned},
	} {
		e := historyOf(r, c.alias, c.role)
		if e == nil || e.Source != pk("bob") || len(e.Intervals) != 1 || e.Intervals[0].Start != c.start ||
			e.Intervals[0].End != c.ending || e.Intervals[0].EndTime != c.end {
			t.Errorf("%s %s history %+v, want [%d, %d] from bob", c.alias, c.role, e, c.start, c.end)
		}
		if r.Authorized(pk(c.alias), ActionState, 10_000) || r.Authorized(pk(c.alias), ActionStatus, 10_000) {
			t.Errorf("%s's replicated closed %s authorizes them now", c.alias, c.role)
		}
	}
	if e := historyOf(r, "erin", "m"); e == nil || e.Source != pk("bob") || e.Intervals[0].Start != 60 {
		t.Errorf("erin's defer copy must be replicated history: %+v", e)
	}
	if r.Confirmed(pk("erin")) || r.Authorized(pk("erin"), ActionStatus, 10_000) {
		t.Error("a defer copy must not authorize its subject")
	}
}
