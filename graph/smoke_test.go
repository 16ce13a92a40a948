package graph

import "testing"

func TestTwoPersonWorkflowResolvesExplicitLead(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	bob := ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	for _, s := range []string{"alice", "bob"} {
		r := resolve(t, s, alice, bob)
		if r.LeadSource != LeadExplicit || r.Lead != pk("alice") {
			t.Fatalf("from %s: lead %s source %s", s, r.Lead, r.LeadSource)
		}
		if statusOf(r, "bob") != StatusConfirmed || statusOf(r, "alice") != StatusConfirmed {
			t.Fatalf("from %s: maintainers %+v", s, r.Maintainers)
		}
	}
}
