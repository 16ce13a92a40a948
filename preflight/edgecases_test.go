package preflight

import (
	"strings"
	"testing"
)

// maintainers.md "A co-maintainer actively assigns a third party": Bob's
// active m:Carol gates every edit but follow-lead for Bob, every edit but the
// covering add for Alice; follow-lead refuses until Alice covers Carol, then
// converts the edge to defer without changing membership.
func TestThirdPartyAssignmentRepair(t *testing.T) {
	w := twoPerson(t)
	// Bob's client writes an active m:Carol; Carol acknowledges Bob.
	w.announce("bob", 2500, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "2500"},
		[]string{"maintainers", "<alice>", "<bob>", "<carol>"})
	w.announce("carol", 2600, []string{"M", "<bob>", "2600"}, []string{"m", "<carol>", "2600"}, []string{"maintainers", "<bob>", "<carol>"})
	if r := w.resolve("alice", 2700); len(r.Component) != 3 {
		t.Fatalf("bob's real edge must confirm carol: %v", confirmed(r))
	}
	// Bob may only run follow-lead, which refuses while Alice does not cover Carol.
	r := w.refused("bob", "alice", 2700, Intent{Action: ActLeave}, "third-party-assignment")
	if !strings.Contains(r.Message, "but the lead does not") || !strings.Contains(r.Message, "roster repo edit --add-maintainer "+npub(pk("carol"))) {
		t.Fatal(r.Message)
	}
	w.refused("bob", "alice", 2700, Intent{Action: ActFollowLead}, "third-party-assignment")
	// Alice cannot remove Carol while Bob's edge retains her, nor edit otherwise...
	w.refused("alice", "alice", 2700, Intent{Action: ActAdd, Subject: pk("dave")}, "co-maintainer-third-party-assignment")
	w.refused("alice", "alice", 2700, Intent{Action: ActRemove, Subject: pk("bob")}, "co-maintainer-third-party-assignment")
	// ...but may cover Carol: the add confirms her immediately (she acknowledges Bob).
	p := w.run("alice", "alice", 2800, Intent{Action: ActAdd, Subject: pk("carol")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "2800"}, mt("alice", "bob", "carol"))
	// Now Bob's follow-lead converts his edge into a defer copy.
	p = w.run("bob", "alice", 2900, Intent{Action: ActFollowLead})
	wantTags(t, p, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "2800", "defer"}, mt("alice", "bob")) // once Bob's edge is history, Carol's effective start is the lead's assignment at 2800
	if len(p.Sim.Lost) != 0 || len(p.Sim.NewlyConfirmed) != 0 {
		t.Fatalf("follow-lead changed membership: %+v", p.Sim)
	}
}

// "If Bob actively lists Carol, Alice cannot remove Carol while retaining
// Bob": the removal names the retaining edge and the repair.
func TestRemovalRefusedWhileAnotherRealEdgeRetainsSubject(t *testing.T) {
	w := threePerson(t)
	// Bob (co-maintainer) actively assigns Carol; Alice covers her too.
	w.announce("bob", 3200, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "3000"},
		[]string{"maintainers", "<alice>", "<bob>", "<carol>"})
	// The lead's edits are gated until Bob converges; the gate names the repair.
	r := w.refused("alice", "alice", 3300, Intent{Action: ActRemove, Subject: pk("carol")}, "co-maintainer-third-party-assignment")
	if !strings.Contains(r.Message, "roster repo follow-lead") {
		t.Fatal(r.Message)
	}
}

// "--remove-maintainer Bob fails if ... anyone besides Bob loses authority."
func TestRemovalRefusedWhenItPartitionsTheGraph(t *testing.T) {
	w := twoPerson(t)
	// Carol acknowledges only Bob; Bob is a prepared co-lead-free path: make
	// Carol confirmed through Bob's real edge in a leadless view instead.
	w2 := &world{t: t}
	w2.announce("alice", 100)
	w2.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob"), NoLead: true})
	w2.run("bob", "alice", 2000, Intent{Action: ActAccept})
	w2.run("bob", "alice", 2100, Intent{Action: ActAdd, Subject: pk("carol"), NoLead: true})
	w2.announce("carol", 2200, []string{"m", "<bob>", "2200"}, []string{"m", "<carol>", "2200"}, []string{"maintainers", "<bob>", "<carol>"})
	if c := confirmed(w2.resolve("alice", 2300)); len(c) != 3 {
		t.Fatalf("confirmed %v", c)
	}
	r := w2.refused("alice", "alice", 2300, Intent{Action: ActRemove, Subject: pk("bob"), NoLead: true}, "removal-partitions")
	if !strings.Contains(r.Message, npub(pk("carol"))) {
		t.Fatal(r.Message)
	}
	_ = w
}

// maintainers.md "Adding a maintainer can join repositories": Bob already
// leads his own same-identifier repository with Tom and acknowledges Alice;
// Alice's add would import Tom, so it is refused naming the path.
func TestAddThatJoinsAnotherComponentIsRefused(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.announce("bob", 200, []string{"m", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<tom>", "200"},
		[]string{"maintainers", "<alice>", "<bob>", "<tom>"})
	w.announce("tom", 300, []string{"m", "<bob>", "300"}, []string{"m", "<tom>", "300"}, []string{"maintainers", "<bob>", "<tom>"})
	r := w.refused("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, "repository-join")
	for _, s := range []string{"cannot add " + npub(pk("bob")) + " safely", npub(pk("tom")) + " via " + npub(pk("bob")) + " -> " + npub(pk("tom")),
		"--force is not available for a repository join"} {
		if !strings.Contains(r.Message, s) {
			t.Fatalf("message lacks %q:\n%s", s, r.Message)
		}
	}
	w.refused("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob"), Force: true}, "repository-join")
}

// "Bob already acknowledges the same component ... The preview reports that
// Bob becomes confirmed immediately rather than describing the operation as
// a pending invitation."
func TestAddConfirmsImmediatelyFromStandingAcknowledgement(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	p := w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	sameSet(t, "newly confirmed", p.Sim.NewlyConfirmed, "bob")
	if !strings.Contains(guidanceText(p), "confirmed immediately") {
		t.Fatalf("guidance %v", p.Guidance)
	}
}

// maintainers.md "Removal, replicated history, and reinvitation": removal,
// the removed maintainer's follow-lead, standing acceptance vs ended self-role.
func TestLeaveAndReinvitation(t *testing.T) {
	// Removed without acknowledging: a later add confirms immediately.
	w := threePerson(t)
	w.run("bob", "alice", 3200, Intent{Action: ActFollowLead})
	p := w.run("alice", "alice", 4000, Intent{Action: ActRemove, Subject: pk("carol")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "3000", "4000"}, mt("alice", "bob"))
	sameSet(t, "lost", p.Sim.Lost, "carol")
	if p.Sim.RemovedStaysConfirmed == nil || *p.Sim.RemovedStaysConfirmed {
		t.Fatal("carol should not stay confirmed")
	}
	p = w.run("alice", "alice", 4500, Intent{Action: ActAdd, Subject: pk("carol")})
	sameSet(t, "standing acceptance confirms immediately", p.Sim.NewlyConfirmed, "carol")

	// Removed and acknowledged with follow-lead: the self-role ends at the
	// lead's end and the M redirect stays; a later add is only an invitation.
	w = threePerson(t)
	w.run("bob", "alice", 3200, Intent{Action: ActFollowLead})
	w.run("alice", "alice", 4000, Intent{Action: ActRemove, Subject: pk("carol")})
	p = w.run("carol", "alice", 4200, Intent{Action: ActFollowLead})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, mt("alice"), []string{"M", "<alice>", "3000"}, []string{"m", "<carol>", "3000", "4000"}, []string{"m", "<bob>", "2000", "defer"})
	p = w.run("alice", "alice", 5000, Intent{Action: ActAdd, Subject: pk("carol")})
	sameSet(t, "reinvitation after ended self-role", p.Sim.NewlyInvited, "carol")
	p = w.run("carol", "alice", 5100, Intent{Action: ActAccept})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, mt("alice", "carol"), []string{"M", "<alice>", "3000"}, []string{"m", "<carol>", "3000", "4000", "5100"}, []string{"m", "<bob>", "2000", "defer"})

	// Leave: ended self-role, active redirect kept.
	w = threePerson(t)
	p = w.run("carol", "alice", 3500, Intent{Action: ActLeave})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, mt("alice"), []string{"M", "<alice>", "3000"}, []string{"m", "<carol>", "3000", "3500"})
	sameSet(t, "lost", p.Sim.Lost, "carol")
}

// "Leaving publishes an ended self-role ... If leaving would also disconnect
// other maintainers, ngit refuses".
func TestLeadCannotLeave(t *testing.T) {
	w := twoPerson(t)
	w.refused("alice", "alice", 3000, Intent{Action: ActLeave}, "lead-cannot-leave")
}

// The lead covers a co-maintainer's third-party subject only in the role
// that assignment gives (graph.LeadCovers): Alice's o:Carol leaves Bob's
// m:Carol uncovered, since converting it to defer would leave Carol a
// moderator only, so follow-lead refuses with the spec's recovery instead
// of reaching the membership check. Bob's o:Dave is covered by Alice's own
// o:Dave, so it does not hold follow-lead up.
func TestLeadModeratorRoleDoesNotCoverAMaintainerAssignment(t *testing.T) {
	w := twoPerson(t)
	w.announce("bob", 2500, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "2500"},
		[]string{"o", "<dave>", "2500"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	w.announce("carol", 2600, []string{"M", "<bob>", "2600"}, []string{"m", "<carol>", "2600"}, []string{"o", "<carol>", "2600"},
		[]string{"maintainers", "<bob>", "<carol>"})
	w.announce("dave", 2600, []string{"M", "<alice>", "2600"}, []string{"o", "<dave>", "2600"})
	w.announce("alice", 2700, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"o", "<carol>", "2700"},
		[]string{"o", "<dave>", "2700"}, []string{"maintainers", "<alice>", "<bob>"})
	r := w.refused("bob", "alice", 2800, Intent{Action: ActFollowLead}, "third-party-assignment")
	if !strings.Contains(r.Message, "your announcement directly assigns "+npub(pk("carol"))+", but the lead does not") ||
		!strings.Contains(r.Message, "roster repo edit --add-maintainer "+npub(pk("carol"))) || strings.Contains(r.Message, npub(pk("dave"))) {
		t.Fatal(r.Message)
	}
	// Once Alice lists Carol as a maintainer, follow-lead converts both edges.
	w.announce("alice", 2900, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "2900"},
		[]string{"o", "<carol>", "2700"}, []string{"o", "<dave>", "2700"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	p := w.run("bob", "alice", 3000, Intent{Action: ActFollowLead})
	if len(p.Sim.Lost) != 0 || len(p.Sim.ModeratorsLost) != 0 {
		t.Fatalf("follow-lead changed membership: %+v", p.Sim)
	}
	for _, tag := range p.Tags {
		if len(tag) >= 2 && (tag[0] == "m" && tag[1] == pk("carol") || tag[0] == "o" && tag[1] == pk("dave")) && tag[len(tag)-1] != "defer" {
			t.Fatalf("bob's third-party edge stayed active: %v", tag)
		}
	}
}
