package preflight

import (
	"strings"
	"testing"
)

// maintainers.md "Adding a maintainer can join repositories": "Expected
// confirmation. Bob already acknowledges the same component, the
// acknowledgement is not tied to an earlier closed assignment interval ...".
// An acknowledgement that is tied to one (a removed maintainer who never
// ended their self-role) still confirms immediately ("restarting the
// assignment confirms them immediately without a new candidate event"), but
// the preview classifies it as a standing acceptance, not an expected
// confirmation; after the removal is recorded a re-add is an invitation.
func TestExpectedConfirmationIsNotTiedToAnEarlierClosedInterval(t *testing.T) {
	// Expected: Bob acknowledged Alice's repository before any assignment.
	w := &world{t: t}
	w.announce("alice", 100)
	w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, mt("alice", "bob"))
	p := w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	if c := p.Sim.Confirmation; c == nil || c.Kind != ConfirmExpected {
		t.Fatalf("first add of an acknowledging pubkey: %+v", c)
	}

	// Standing acceptance: Carol accepted at 3000, Alice closed her
	// assignment at 4000, Carol never recorded the removal.
	w = threePerson(t)
	w.run("alice", "alice", 4000, Intent{Action: ActRemove, Subject: pk("carol")})
	p = w.run("alice", "alice", 4200, Intent{Action: ActAdd, Subject: pk("carol")})
	c := p.Sim.Confirmation
	if c == nil || c.Kind != ConfirmStanding || c.AcceptedAt != 3000 || c.ClosedAt != 4000 {
		t.Fatalf("re-add over a standing acceptance: %+v", c)
	}
	sameSet(t, "newly confirmed", p.Sim.NewlyConfirmed, "carol")
	if g := guidanceText(p); !strings.Contains(g, "confirmed again by their acceptance from 1970-01-01 00:50:00 UTC") || !strings.Contains(g, "closed at 1970-01-01 01:06:40 UTC") {
		t.Fatalf("guidance: %s", g)
	}

	// After Carol records the removal, the re-add is only an invitation.
	w.run("alice", "alice", 4300, Intent{Action: ActRemove, Subject: pk("carol")})
	w.run("carol", "alice", 4400, Intent{Action: ActFollowLead})
	p = w.run("alice", "alice", 4500, Intent{Action: ActAdd, Subject: pk("carol")})
	if c := p.Sim.Confirmation; c == nil || c.Kind != ConfirmInvitation {
		t.Fatalf("re-add after the removal was recorded: %+v", c)
	}

	// A new acceptance signed after the closed interval is not tied to it.
	w.run("alice", "alice", 4600, Intent{Action: ActRemove, Subject: pk("carol")})
	w.announce("carol", 4700, []string{"M", "<alice>", "3000"}, []string{"m", "<carol>", "3000", "4300", "4700"}, mt("alice", "carol"))
	p = w.run("alice", "alice", 4800, Intent{Action: ActAdd, Subject: pk("carol")})
	if c := p.Sim.Confirmation; c == nil || c.Kind != ConfirmExpected {
		t.Fatalf("re-add after a fresh acceptance: %+v", c)
	}
}
