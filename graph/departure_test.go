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
