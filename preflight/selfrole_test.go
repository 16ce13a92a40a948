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

// "If there is no superseding active role, the resolved lead still has an
// active invitation, and the invalid record satisfies the safe
// combined-repair shape above, ... direct them to publish a valid
// acceptance"; "If there is no current invitation, or the history requires a
// separate repair, the client reports that fact instead of offering an
// acceptance command".
func TestSelfDeferGateOffersAcceptOnlyWhenAcceptanceCanRepair(t *testing.T) {
	w := twoPerson(t)
	w.run("alice", "alice", 2500, Intent{Action: ActAdd, Subject: pk("carol")})
	w.announce("carol", 2600, []string{"M", "<alice>", "2600"}, []string{"m", "<carol>", "2600", "defer"}, []string{"maintainers", "<alice>"})
	r := w.refused("carol", "alice", 2700, Intent{Action: ActLeave}, "invalid-self-role")
	if len(r.Commands) != 1 || r.Commands[0].String() != "roster repo accept" || !strings.Contains(r.Message, "accept the current invitation") {
		t.Fatalf("simple self-defer with an invitation: %v\n%s", r.Commands, r.Message)
	}
	// A longer history needs a separate repair: no accept offered.
	w.announce("carol", 2800, []string{"M", "<alice>", "2600"}, []string{"m", "<carol>", "10", "20", "2600", "defer"}, []string{"maintainers", "<alice>"})
	r = w.refused("carol", "alice", 2900, Intent{Action: ActLeave}, "invalid-self-role")
	if len(r.Commands) != 0 || strings.Contains(r.Message, "roster repo accept") || !strings.Contains(r.Message, "separate signer-reviewed repair") {
		t.Fatalf("complex self-defer: %v\n%s", r.Commands, r.Message)
	}
	// Without an invitation there is nothing to accept.
	w.run("alice", "alice", 3000, Intent{Action: ActRemove, Subject: pk("carol")})
	w.announce("carol", 3100, []string{"M", "<alice>", "2600"}, []string{"m", "<carol>", "2600", "defer"}, []string{"maintainers", "<alice>"})
	r = w.refused("carol", "alice", 3200, Intent{Action: ActLeave}, "invalid-self-role")
	if len(r.Commands) != 0 || strings.Contains(r.Message, "roster repo accept") || !strings.Contains(r.Message, "no current invitation") {
		t.Fatalf("no invitation: %v\n%s", r.Commands, r.Message)
	}
}
