package graph

import "testing"

// "A valid numeric departure prevails even beside malformed tags: a validly
// departed author is redirected toward the current lead as usual, stray
// invalid records notwithstanding." Carol left (numeric self-m end) and
// her announcement also carries an unsuperseded self-defer and a malformed
// record; her coordinate still forwards to Alice.
func TestDepartedSelectedWithStrayInvalidRecordsStillRedirects(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<carol>", "100", "400"}, []string{"maintainers", "<alice>"})
	for name, stray := range map[string][]string{
		"self-defer": {"o", "<carol>", "50", "defer"},
		"malformed":  {"m", "<carol>", "x"},
	} {
		carol := ann(t, "carol", 420, []string{"M", "<alice>", "100"}, []string{"m", "<carol>", "100", "400"}, stray, []string{"maintainers", "<alice>"})
		r := resolve(t, "carol", alice, carol)
		if r.LeadSource != LeadExplicit || r.Lead != pk("alice") || !r.FollowLead || r.Confirmed(pk("carol")) {
			t.Errorf("%s: %s lead %q follow %v, want explicit redirect to alice without restoring carol", name, r.LeadSource, r.Lead, r.FollowLead)
		}
	}
}

// "A lead points to themselves; a co-maintainer or former maintainer
// preserving a redirect points to the lead. If the target points onward,
// resolution continues." Dave still points to Carol, who left (numeric
// self-m end) but keeps her active M:Alice redirect: the walk continues to
// Alice. "Conflict ... a target has explicitly left" is the departed target
// with no onward pointer (else it would read as one who "has not
// accepted").
func TestWalkContinuesThroughADepartedTargetsRedirect(t *testing.T) {
	alice := ann(t, "alice", 400, []string{"M", "<alice>"}, []string{"m", "<carol>", "100", "400"}, []string{"m", "<dave>", "200"}, []string{"maintainers", "<alice>", "<dave>"})
	carolLeft := ann(t, "carol", 420, []string{"M", "<alice>", "100"}, []string{"m", "<carol>", "100", "400"}, []string{"maintainers", "<alice>"})
	dave := ann(t, "dave", 200, []string{"M", "<carol>", "200"}, []string{"m", "<dave>", "200"}, []string{"maintainers", "<carol>", "<dave>"})
	r := resolve(t, "dave", alice, carolLeft, dave)
	if r.LeadSource != LeadExplicit || r.Lead != pk("alice") || len(r.LeadPath) != 3 || r.Confirmed(pk("carol")) {
		t.Fatalf("through a redirect: %s lead %q path %d, carol confirmed %v", r.LeadSource, r.Lead, len(r.LeadPath), r.Confirmed(pk("carol")))
	}
	// Carol ends her redirect too (archive): now the target has explicitly
	// left with nothing to follow.
	carolArchived := ann(t, "carol", 430, []string{"M", "<alice>", "100", "400"}, []string{"m", "<carol>", "100", "400"}, []string{"maintainers"})
	if r := resolve(t, "dave", alice, carolArchived, dave); r.LeadSource != LeadConflict || r.LeadPath[len(r.LeadPath)-1] != pk("carol") {
		t.Fatalf("archived target: %s %v", r.LeadSource, r.LeadPath)
	}
}
