package preflight

import (
	"testing"
)

// maintainers.md "Replicated role history": "Once Bob accepts at T2, Alice
// changes the beginning of that first interval to T2" — the interval her
// invitation opened — and "A role transition closes the old letter and starts
// the new one rather than rewriting the past." For a first invitation that is
// the record's first start; after a removal and reinvitation the invitation
// opened the current interval, so only its start moves and the earlier,
// closed tenure keeps its signed boundaries.
func TestAcknowledgeMovesTheStartOfTheIntervalTheInvitationOpened(t *testing.T) {
	w := threePerson(t)
	// First invitation: Carol invited at 2500, accepted at 3000, acknowledged
	// at 3100 (the first start moved from 2500 to 3000).
	w.run("alice", "alice", 4000, Intent{Action: ActRemove, Subject: pk("carol")})
	w.run("carol", "alice", 4300, Intent{Action: ActFollowLead}) // Carol records the removal: her self-m ends
	w.run("alice", "alice", 5000, Intent{Action: ActAdd, Subject: pk("carol")})
	w.run("carol", "alice", 5100, Intent{Action: ActAccept})
	p := w.run("alice", "alice", 5200, Intent{Action: ActAcknowledge, Subject: pk("carol")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "3000", "4000", "5100"},
		mt("alice", "bob", "carol"))
	if acks := w.resolve("alice", 5300).PendingAcknowledgements; len(acks) != 0 {
		t.Fatalf("still pending: %+v", acks)
	}
}
