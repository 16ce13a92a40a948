package preflight

import (
	"strings"
	"testing"
)

// maintainers.md "Replicated role history": "A valid active self-role whose
// signed start is later than the malformed interval's last valid start
// supersedes it ... If signed boundaries do not order the records, the client
// cannot assume that one supersedes the other." The write gate uses graph's
// rule, so an untimed successor still blocks the author's mutations while a
// later signed one does not.
func TestSelfDeferGateAgreesWithGraphOnSuccessorOrdering(t *testing.T) {
	w := twoPerson(t)
	w.announce("bob", 2500, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000", "defer"}, []string{"o", "<bob>"}, mt("alice"))
	r := w.refused("bob", "alice", 2600, Intent{Action: ActLeave}, "invalid-self-role")
	if !strings.Contains(r.Message, `["m","`+pk("bob")+`","2000","defer"]`) {
		t.Fatal(r.Message)
	}
	// A signed later successor supersedes the self-defer: the gate lets the
	// author's own mutation through and preserves the record byte for byte.
	w.announce("bob", 2700, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000", "defer"}, []string{"o", "<bob>", "2600"}, mt("alice"))
	p, rr := w.prepare("bob", "alice", 2800, Intent{Action: ActLeave})
	if rr != nil && rr.Code == "invalid-self-role" {
		t.Fatalf("a later signed successor must supersede the self-defer: %s", rr.Message)
	}
	if p != nil && !strings.Contains(aliasTags(p.Tags), `["m","<bob>","2000","defer"]`) {
		t.Fatalf("the superseded self-defer must be kept byte for byte: %s", aliasTags(p.Tags))
	}
}
