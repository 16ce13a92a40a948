package preflight

import (
	"strings"
	"testing"
)

// Rule (the simulation reports selected-coordinate changes): after the lead
// hands over, a co-maintainer's follow-lead reports the checkout's
// coordinate moving from the old lead's to the new lead's, not only the
// SwitchTo the command acts on.
func TestSimulationReportsSelectedCoordinateChangeOnFollowLead(t *testing.T) {
	w := threePerson(t)
	w.run("bob", "alice", 3200, Intent{Action: ActFollowLead})
	w.run("carol", "alice", 3250, Intent{Action: ActFollowLead})
	w.run("bob", "bob", 4000, Intent{Action: ActLead, Lead: pk("bob")})
	w.run("alice", "alice", 5000, Intent{Action: ActLead, Lead: pk("bob")})
	p := w.run("carol", "alice", 5100, Intent{Action: ActFollowLead})
	if p.Sim.SelectedBefore.Pubkey != pk("alice") || p.Sim.SelectedBefore.Identifier != repoID {
		t.Fatalf("selected before = %+v, want alice's %s", p.Sim.SelectedBefore, repoID)
	}
	if p.Sim.SelectedAfter.Pubkey != pk("bob") || p.Sim.SelectedAfter.Identifier != repoID {
		t.Fatalf("selected after = %+v, want bob's %s", p.Sim.SelectedAfter, repoID)
	}
	// Lead changes are reported too: the rooted lead was already Bob here,
	// so before and after agree; the handover itself reported the change.
	if p.Sim.LeadBefore.Lead != pk("bob") || p.Sim.LeadAfter.Lead != pk("bob") {
		t.Fatalf("lead before %s after %s", aliasText(p.Sim.LeadBefore.Lead), aliasText(p.Sim.LeadAfter.Lead))
	}
}

// Rule (the simulation reports lead changes): Alice pointing to Bob reports the
// lead moving from Alice to Bob with the new lead path.
func TestSimulationReportsLeadChangeOnHandover(t *testing.T) {
	w := threePerson(t)
	w.run("bob", "alice", 3200, Intent{Action: ActFollowLead})
	w.run("carol", "alice", 3250, Intent{Action: ActFollowLead})
	w.run("bob", "bob", 4000, Intent{Action: ActLead, Lead: pk("bob")})
	p := w.run("alice", "alice", 5000, Intent{Action: ActLead, Lead: pk("bob")})
	if p.Sim.LeadBefore.Lead != pk("alice") || p.Sim.LeadAfter.Lead != pk("bob") {
		t.Fatalf("lead before %s after %s, want alice then bob", aliasText(p.Sim.LeadBefore.Lead), aliasText(p.Sim.LeadAfter.Lead))
	}
	if p.Sim.LeadAfter.Source != "explicit" || len(p.Sim.LeadAfter.Path) != 2 ||
		p.Sim.LeadAfter.Path[0] != pk("alice") || p.Sim.LeadAfter.Path[1] != pk("bob") {
		t.Fatalf("lead after %+v, want explicit path alice -> bob", p.Sim.LeadAfter)
	}
	if len(p.Sim.Lost) != 0 || len(p.Sim.NewlyConfirmed) != 0 {
		t.Fatalf("a complete handover changes nobody's membership: lost %v gained %v", p.Sim.Lost, p.Sim.NewlyConfirmed)
	}
}

// Rule (the simulation reports component joins with every transitively
// imported pubkey and connecting edge) and maintainers.md "Adding a maintainer can join
// repositories": Bob leads a repository with Tom, and Tom in turn confirms
// Eve; Alice's add of Bob would import Tom AND Eve, each named with the
// edges that connect them.
func TestJoinRefusalNamesEveryTransitivelyImportedPubkey(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.announce("bob", 200, []string{"m", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<tom>", "200"},
		[]string{"maintainers", "<alice>", "<bob>", "<tom>"})
	w.announce("tom", 300, []string{"m", "<bob>", "300"}, []string{"m", "<tom>", "300"}, []string{"m", "<eve>", "300"},
		[]string{"maintainers", "<bob>", "<tom>", "<eve>"})
	w.announce("eve", 400, []string{"m", "<tom>", "400"}, []string{"m", "<eve>", "400"}, []string{"maintainers", "<tom>", "<eve>"})
	r := w.refused("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, "repository-join")
	for _, s := range []string{
		npub(pk("tom")) + " via " + npub(pk("bob")) + " -> " + npub(pk("tom")),
		npub(pk("eve")) + " via " + npub(pk("tom")) + " -> " + npub(pk("eve")),
		npub(pk("eve")) + " via " + npub(pk("eve")) + " -> " + npub(pk("tom")),
	} {
		if !strings.Contains(r.Message, s) {
			t.Fatalf("message lacks %q:\n%s", s, r.Message)
		}
	}
	imported, ok := r.Details["imported"].([]map[string]any)
	if !ok {
		t.Fatalf("details.imported is %T: %+v", r.Details["imported"], r.Details)
	}
	got := map[string]int{}
	for _, im := range imported {
		edges, _ := im["edges"].([]map[string]string)
		got[im["pubkey"].(string)] = len(edges)
	}
	if len(got) != 2 || got[npub(pk("tom"))] == 0 || got[npub(pk("eve"))] == 0 {
		t.Fatalf("imported %+v, want tom and eve each with connecting edges", imported)
	}
}

// Rule (the simulation reports identity changes: `r` euc, `u`) and
// maintainers.md "Conflicting identity, u, history, or authorization always
// blocks": an invitation only reports the difference; the accept that would
// confirm it is refused with the `u` change in its details.
func TestSimulationReportsUpstreamIdentityChange(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"u", "https://git.example/upstream.git"})
	w.announce("bob", 150, []string{"u", "https://git.example/fork.git"})
	p := w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	if len(p.Sim.Identity) != 1 || p.Sim.Identity[0].Field != "u" || p.Sim.Identity[0].Who != pk("bob") ||
		p.Sim.Identity[0].Before != "https://git.example/fork.git" || p.Sim.Identity[0].After != "https://git.example/upstream.git" {
		t.Fatalf("identity changes %+v, want bob's u fork -> upstream", p.Sim.Identity)
	}
	r := w.refused("bob", "alice", 2000, Intent{Action: ActAccept}, "identity-conflict")
	changes, ok := r.Details["identity_changes"].([]IdentityChange)
	if !ok || len(changes) != 1 || changes[0].Field != "u" {
		t.Fatalf("refusal details %+v, want one u identity change", r.Details)
	}
	if !strings.Contains(r.Message, "https://git.example/fork.git") || !strings.Contains(r.Message, "https://git.example/upstream.git") {
		t.Fatalf("message should name both upstreams:\n%s", r.Message)
	}
}

// Rule (the simulation reports identity changes, `r` euc): the refused
// accept carries the two earliest unique commits in its details, not only
// in prose.
func TestIdentityConflictDetailsCarryBothEarliestUniqueCommits(t *testing.T) {
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	w := &world{t: t}
	w.announce("alice", 100, []string{"r", a, "euc"})
	w.announce("bob", 150, []string{"r", b, "euc"})
	w.announce("alice", 1000, []string{"r", a, "euc"}, []string{"M", "<alice>"}, []string{"m", "<bob>", "1000"}, mt("alice", "bob"))
	r := w.refused("bob", "alice", 2000, Intent{Action: ActAccept}, "identity-conflict")
	changes, ok := r.Details["identity_changes"].([]IdentityChange)
	if !ok || len(changes) != 1 || changes[0].Field != "r euc" || changes[0].Before != b || changes[0].After != a {
		t.Fatalf("refusal details %+v, want r euc %s -> %s", r.Details, b, a)
	}
}

// Rule (the simulation reports withdrawn invitations): the lead removing
// somebody who never accepted withdraws an invitation; nobody is lost.
func TestSimulationReportsAWithdrawnInvitation(t *testing.T) {
	w := twoPerson(t)
	w.run("alice", "alice", 2500, Intent{Action: ActAdd, Subject: pk("carol")})
	p := w.run("alice", "alice", 2600, Intent{Action: ActRemove, Subject: pk("carol")})
	sameSet(t, "invitations withdrawn", p.Sim.InvitationsWithdrawn, "carol")
	sameSet(t, "lost", p.Sim.Lost)
	sameSet(t, "newly invited", p.Sim.NewlyInvited)
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "2500", "2600"}, mt("alice", "bob"))
}

// The `r` euc commit is read by graph's one rule (40 lowercase hex, with or
// without the marker): a value graph does not accept as a commit is no
// identity, so it cannot make an identity change on its own.
func TestIdentityUsesGraphsEUCRule(t *testing.T) {
	a := strings.Repeat("a", 40)
	w := &world{t: t}
	w.announce("alice", 100, []string{"r", a, "euc"})
	w.announce("bob", 150, []string{"r", strings.Repeat("B", 40), "euc"})
	p := w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	for _, c := range p.Sim.Identity {
		if c.Field == "r euc" {
			t.Fatalf("an r value graph does not read as a commit made an identity change: %+v", c)
		}
	}
}
