package preflight

import (
	"strings"
	"testing"
)

// "The same rule applies when a maintainer is removed or leaves": after Carol
// leaves, the lead records her end with --acknowledge-maintainer-change.
func TestAcknowledgeRecordsDeparture(t *testing.T) {
	w := threePerson(t)
	w.run("carol", "alice", 3500, Intent{Action: ActLeave})
	p := w.run("alice", "alice", 3600, Intent{Action: ActAcknowledge, Subject: pk("carol")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "3000", "3500"}, mt("alice", "bob"))
	w.refused("alice", "alice", 3700, Intent{Action: ActAcknowledge, Subject: pk("carol")}, "nothing-to-acknowledge")
}

// "repo leave can end an acknowledged self-moderator role."
func TestLeaveEndsSelfModeratorRole(t *testing.T) {
	w := twoPerson(t)
	w.announce("alice", 2200, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"o", "<dave>", "2200"}, mt("alice", "bob"))
	w.announce("dave", 2300, []string{"o", "<dave>", "2300"}, []string{"maintainers"})
	if r := w.resolve("alice", 2400); !r.ConfirmedModerator(pk("dave")) {
		t.Fatal("dave should be a confirmed moderator")
	}
	p := w.run("dave", "alice", 2500, Intent{Action: ActLeave})
	wantTags(t, p, []string{"o", "<dave>", "2300", "2500"}, []string{"maintainers"})
	sameSet(t, "moderators lost", p.Sim.ModeratorsLost, "dave")
}

// "Every maintainer mutation preserves existing o role and history records"
// and a prepared lead assigns the complete roster, moderators included.
func TestPreparedLeadRosterIncludesModerators(t *testing.T) {
	w := twoPerson(t)
	w.announce("alice", 2200, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"o", "<dave>", "2200"}, mt("alice", "bob"))
	w.announce("dave", 2300, []string{"o", "<dave>", "2300"}, []string{"maintainers"})
	p := w.run("bob", "bob", 3000, Intent{Action: ActLead, Lead: pk("bob")})
	if !strings.Contains(aliasTags(p.Tags), `["o","<dave>","2200"]`) {
		t.Fatalf("prepared roster lacks the moderator: %s", aliasTags(p.Tags))
	}
}

// "Cosmetic metadata can follow the ordinary shared-field rules. Conflicting
// identity, u, history, or authorization always blocks."
func TestAcceptRefusedOnEarliestUniqueCommitConflict(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"r", strings.Repeat("a", 40), "euc"})
	w.announce("bob", 150, []string{"r", strings.Repeat("b", 40), "euc"})
	w.announce("alice", 1000, []string{"r", strings.Repeat("a", 40), "euc"}, []string{"M", "<alice>"}, []string{"m", "<bob>", "1000"}, mt("alice", "bob"))
	r := w.refused("bob", "alice", 2000, Intent{Action: ActAccept}, "identity-conflict")
	if !strings.Contains(r.Message, "--force cannot override an earliest-unique-commit or fork-identity conflict") {
		t.Fatal(r.Message)
	}
	w.refused("bob", "alice", 2000, Intent{Action: ActAccept, Force: true}, "identity-conflict")
}

// "If they would join another person or repository, acceptance fails and
// names every imported path" — without dropping Bob's own relationships.
func TestAcceptThatImportsAnotherComponentIsRefused(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.announce("bob", 150, []string{"M", "<bob>"}, []string{"m", "<tom>", "150"}, mt("bob", "tom"))
	w.announce("tom", 160, []string{"M", "<bob>", "160"}, []string{"m", "<tom>", "160"}, mt("bob", "tom"))
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	w.refused("bob", "alice", 2000, Intent{Action: ActAccept}, "own-lead-declaration")
	// Without the self-M, Bob's active m:Tom would still import Tom.
	w.announce("bob", 1500, []string{"m", "<tom>", "150"}, []string{"maintainers", "<tom>"})
	r := w.refused("bob", "alice", 2000, Intent{Action: ActAccept}, "repository-join")
	if !strings.Contains(r.Message, npub(pk("tom"))) {
		t.Fatal(r.Message)
	}
}

// "Malformed is not departure": exclusively unparseable self records gate
// the author's own mutations.
func TestMalformedSelfRecordsGateAuthor(t *testing.T) {
	w := twoPerson(t)
	w.announce("bob", 2500, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "x2000"}, mt("alice"))
	w.refused("bob", "alice", 2600, Intent{Action: ActLeave}, "invalid-self-role")
	w.refused("bob", "alice", 2600, Intent{Action: ActFollowLead}, "invalid-self-role")
}

// "For users who never held a role it changes only local configuration."
func TestFollowLeadForNonMaintainerOnlySwitchesCheckout(t *testing.T) {
	w := threePerson(t)
	w.run("bob", "alice", 3200, Intent{Action: ActFollowLead})
	w.run("bob", "bob", 4000, Intent{Action: ActLead, Lead: pk("bob")})
	w.run("alice", "alice", 5000, Intent{Action: ActLead, Lead: pk("bob")})
	p, r := w.prepare("dave", "alice", 5100, Intent{Action: ActFollowLead})
	if r != nil {
		t.Fatalf("refused: %s", r.Message)
	}
	if p.Tags != nil || p.SwitchTo == nil || p.SwitchTo.Pubkey != pk("bob") {
		t.Fatalf("want local switch to bob only, got tags %v switch %+v", p.Tags, p.SwitchTo)
	}
	w.refused("dave", "bob", 5100, Intent{Action: ActFollowLead}, "nothing-to-change")
}

// "A co-maintainer receives an actionable error" even before they have an
// announcement of their own (an invitee trying to add somebody).
func TestInviteeAddGetsTheLeadError(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	w.refused("bob", "alice", 1100, Intent{Action: ActAdd, Subject: pk("carol")}, "only-lead-manages-roster")
}

// "Acceptance must preserve those signed relationships; it cannot silently
// omit them": an ngit-style legacy listing of Dave is kept as an active m,
// so the acceptance would also invite Dave, and is refused.
func TestAcceptKeepsLegacyListings(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.announce("bob", 150, []string{"maintainers", "<bob>", "<dave>"}, []string{"alt", "git repository: x"})
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	r := w.refused("bob", "alice", 2000, Intent{Action: ActAccept}, "unexpected-membership-change")
	if !strings.Contains(r.Message, "would newly invite: "+npub(pk("dave"))) {
		t.Fatal(r.Message)
	}
}

// The lead's own follow-lead only anchors the checkout at the lead.
func TestLeadFollowLeadOnlySwitchesCheckout(t *testing.T) {
	w := threePerson(t)
	w.run("bob", "alice", 3200, Intent{Action: ActFollowLead})
	w.run("bob", "bob", 4000, Intent{Action: ActLead, Lead: pk("bob")})
	w.run("alice", "alice", 5000, Intent{Action: ActLead, Lead: pk("bob")})
	p, r := w.prepare("bob", "alice", 5100, Intent{Action: ActFollowLead})
	if r != nil || p.Tags != nil || p.SwitchTo == nil || p.SwitchTo.Pubkey != pk("bob") {
		t.Fatalf("refusal %v plan %+v", r, p)
	}
}

// "If Bob remains active through a real relationship elsewhere ... ngit
// refuses and names the relevant people and paths": in a leadless
// repository Bob's own active m keeps Carol confirmed. There is no lead to
// follow, so the remedy is Bob withdrawing his own edge ("remove each
// intended person explicitly"), and the retry keeps --no-lead-maintainer.
func TestRemovalRetainedByAnotherRealEdge(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob"), NoLead: true})
	w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	w.run("alice", "alice", 2100, Intent{Action: ActAdd, Subject: pk("carol"), NoLead: true})
	w.run("bob", "alice", 2200, Intent{Action: ActAdd, Subject: pk("carol"), NoLead: true})
	w.run("carol", "alice", 2300, Intent{Action: ActAccept})
	r := w.refused("alice", "alice", 2400, Intent{Action: ActRemove, Subject: pk("carol"), NoLead: true}, "removal-retained")
	for _, s := range []string{"cannot remove " + npub(pk("carol")) + ": they stay confirmed through another real relationship",
		npub(pk("bob")) + " -> " + npub(pk("carol")), "no lead to converge on"} {
		if !strings.Contains(r.Message, s) {
			t.Fatalf("message lacks %q:\n%s", s, r.Message)
		}
	}
	rerun := Intent{Action: ActRemove, Subject: pk("carol"), NoLead: true}.Command()
	if strings.Contains(r.Message, "follow-lead") || len(r.Commands) != 2 || r.Commands[0].String() != rerun+"  # run by "+npub(pk("bob")) || r.Commands[1].String() != rerun {
		t.Fatalf("commands %v\n%s", r.Commands, r.Message)
	}
}
