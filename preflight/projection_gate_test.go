package preflight

import (
	"strings"
	"testing"
)

// maintainers.md "The compatibility roster contradicts indexed roles":
// "--fix-maintainers must be run alone ... Any other ngit repo edit fails
// before evaluating its requested change and repeats the repair command."
// Every intent, including ones that would otherwise be refused for their own
// reason (a removal of somebody not listed, the lead leaving), gets the
// projection refusal first.
func TestWrongProjectionGatesEveryOtherIntentBeforeItsOwnChecks(t *testing.T) {
	w := twoPerson(t)
	// Alice's and Bob's current announcements keep their roles but list
	// only themselves in `maintainers`.
	w.announce("alice", 2200, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"maintainers", "<alice>"})
	w.announce("bob", 2300, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"maintainers", "<bob>"})
	cases := []struct {
		who string
		it  Intent
	}{
		{"alice", Intent{Action: ActAdd, Subject: pk("carol")}},
		{"alice", Intent{Action: ActRemove, Subject: pk("bob")}},
		{"alice", Intent{Action: ActRemove, Subject: pk("tom")}}, // not listed: still the projection first
		{"alice", Intent{Action: ActLead, Lead: pk("bob")}},
		{"alice", Intent{Action: ActAcknowledge, Subject: pk("bob")}},
		{"alice", Intent{Action: ActLeave}}, // the lead cannot leave: still the projection first
		{"alice", Intent{Action: ActFollowLead}},
		{"bob", Intent{Action: ActLeave}},
		{"bob", Intent{Action: ActFollowLead}},
		{"bob", Intent{Action: ActAccept}}, // already a maintainer: still the projection first
		{"bob", Intent{Action: ActLead, Lead: pk("bob")}},
	}
	for _, c := range cases {
		r := w.refused(c.who, "alice", 3000, c.it, "maintainers-projection-mismatch")
		if !strings.Contains(r.Message, "roster repo edit --fix-maintainers") {
			t.Fatalf("%s by %s: the refusal does not repeat the repair command:\n%s", c.it.Command(), c.who, r.Message)
		}
	}
	// The repair itself runs, and afterwards the gate is gone.
	w.run("alice", "alice", 3000, Intent{Action: ActFix})
	w.run("alice", "alice", 3100, Intent{Action: ActAdd, Subject: pk("carol")})
}
