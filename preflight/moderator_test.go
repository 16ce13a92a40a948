package preflight

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
)

// maintainers.md "Moderators": the lead's active o assigns a moderator
// invitation, the recipient acknowledges with an active self-o (nothing
// else), the lead's removal ends the assignment and leave ends the
// acknowledgement; maintainer membership never changes.
func TestModeratorInvitationAcceptanceAndRemoval(t *testing.T) {
	w := twoPerson(t)
	p := w.run("alice", "alice", 2200, Intent{Action: ActAddModerator, Subject: pk("dave")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"o", "<dave>", "2200"}, mt("alice", "bob"))
	sameSet(t, "newly invited", p.Sim.NewlyInvited, "dave")
	if len(p.Sim.NewlyConfirmed) != 0 || len(p.Sim.ModeratorsGained) != 0 {
		t.Fatalf("an assignment alone confirms nobody: %+v", p.Sim)
	}
	if g := guidanceText(p); !strings.Contains(g, "roster repo accept --moderator") {
		t.Fatalf("the invitee is told to acknowledge: %s", g)
	}
	// The recipient acknowledges: only an active self-o.
	p = w.run("dave", "alice", 2300, Intent{Action: ActAcceptModerator})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, []string{"maintainers"}, []string{"o", "<dave>", "2300"})
	sameSet(t, "moderators gained", p.Sim.ModeratorsGained, "dave")
	if r := w.resolve("alice", 2400); !r.ConfirmedModerator(pk("dave")) || r.Confirmed(pk("dave")) {
		t.Fatal("dave is a confirmed moderator and no maintainer")
	}
	w.refused("dave", "alice", 2400, Intent{Action: ActAcceptModerator}, "already-moderator")
	w.refused("alice", "alice", 2400, Intent{Action: ActAddModerator, Subject: pk("dave")}, "already-moderator")
	// The lead's removal closes her assignment.
	p = w.run("alice", "alice", 2500, Intent{Action: ActRemoveModerator, Subject: pk("dave")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"o", "<dave>", "2200", "2500"}, mt("alice", "bob"))
	sameSet(t, "moderators lost", p.Sim.ModeratorsLost, "dave")
	w.refused("alice", "alice", 2600, Intent{Action: ActRemoveModerator, Subject: pk("dave")}, "not-listed")
	// leave ends dave's own acknowledgement.
	p = w.run("dave", "alice", 2600, Intent{Action: ActLeave})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, []string{"maintainers"}, []string{"o", "<dave>", "2300", "2600"})
}

// "only the resolved lead" manages the moderator roster too, one person
// per command, and nobody appoints themselves.
func TestModeratorChangesFollowTheMaintainerGovernance(t *testing.T) {
	w := twoPerson(t)
	r := w.refused("bob", "alice", 2200, Intent{Action: ActAddModerator, Subject: pk("dave")}, "only-lead-manages-roster")
	if !strings.Contains(r.Message, "add moderators") || !strings.Contains(r.Message, "roster repo edit --add-moderator "+npub(pk("dave"))) {
		t.Fatal(r.Message)
	}
	w.refused("alice", "alice", 2200, Intent{Action: ActAddModerator, Subject: pk("bob")}, "already-maintainer")
	w.refused("alice", "alice", 2200, Intent{Action: ActAddModerator, Subject: pk("alice")}, "self-add")
	w.refused("alice", "alice", 2200, Intent{Action: ActAddModerator, Subject: pk("dave"), NoLead: true}, "lead-exists")
	w.refused("alice", "alice", 2200, Intent{Action: ActAddModerator, Subject: pk("dave"), Force: true}, "force-not-available")
	w.refused("alice", "alice", 2200, Intent{Action: ActRemoveModerator, Subject: pk("dave")}, "not-listed")
	r = w.refused("dave", "alice", 2200, Intent{Action: ActAcceptModerator}, "not-invited")
	if len(r.Commands) == 0 || r.Commands[0].Line() != (Intent{Action: ActAddModerator, Subject: pk("dave")}).Command() {
		t.Fatalf("not-invited names the lead's add: %+v", r.Commands)
	}
	w.refused("bob", "alice", 2200, Intent{Action: ActAcceptModerator}, "already-maintainer")
	// An implicit sole maintainer's first moderator makes them lead, as a first invite does.
	s := &world{t: t}
	s.announce("alice", 100)
	p := s.run("alice", "alice", 1000, Intent{Action: ActAddModerator, Subject: pk("dave")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"o", "<dave>", "1000"}, mt("alice"))
	// Kept leadless, the sole maintainer's role is materialized as an untimed
	// self-m: an o alone would leave the announcement without its author's role.
	l := &world{t: t}
	l.announce("alice", 100)
	p = l.run("alice", "alice", 1000, Intent{Action: ActAddModerator, Subject: pk("dave"), NoLead: true})
	wantTags(t, p, []string{"m", "<alice>"}, []string{"o", "<dave>", "1000"}, mt("alice"))
	if p.Sim.LeadAfter.Source != string(graph.LeadExplicitNone) || len(p.Sim.Lost) != 0 {
		t.Fatalf("leadless on purpose, nobody lost: %+v", p.Sim)
	}
}

// "In a leadless repository, an active o from a confirmed maintainer can
// assign the invitation": each change needs the governance choice, and a
// removal refuses while another maintainer's o keeps the person.
func TestLeadlessModeratorChanges(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob"), NoLead: true})
	w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	w.refused("alice", "alice", 2100, Intent{Action: ActAddModerator, Subject: pk("dave")}, "governance-choice-required")
	p := w.run("alice", "alice", 2100, Intent{Action: ActAddModerator, Subject: pk("dave"), NoLead: true})
	if !strings.Contains(aliasTags(p.Tags), `["o","<dave>","2100"]`) {
		t.Fatal(aliasTags(p.Tags))
	}
	w.run("bob", "alice", 2200, Intent{Action: ActAddModerator, Subject: pk("dave"), NoLead: true})
	w.run("dave", "alice", 2300, Intent{Action: ActAcceptModerator})
	r := w.refused("alice", "alice", 2400, Intent{Action: ActRemoveModerator, Subject: pk("dave"), NoLead: true}, "removal-retained")
	if !strings.Contains(r.Message, npub(pk("bob"))) || !strings.Contains(r.Message, "--remove-moderator "+npub(pk("dave"))+" --no-lead-maintainer") {
		t.Fatal(r.Message)
	}
	// With one assigner left, the removal ends the role.
	w.announce("bob", 2500, []string{"m", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"maintainers", "<alice>", "<bob>"})
	p = w.run("alice", "alice", 2600, Intent{Action: ActRemoveModerator, Subject: pk("dave"), NoLead: true})
	sameSet(t, "moderators lost", p.Sim.ModeratorsLost, "dave")
}

// The lead-side gate of a co-maintainer's active third-party o: the only
// edit left to the lead is the add that covers the subject in the role
// assigned, --add-moderator; --add-maintainer would invite a maintainer
// instead. Once covered, follow-lead turns Bob's o into a defer copy of the
// lead's record and the lead's edits work again.
func TestThirdPartyModeratorAssignmentIsCoveredWithAddModerator(t *testing.T) {
	w := twoPerson(t)
	w.announce("bob", 2500, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"o", "<dave>", "2500"}, mt("alice", "bob"))
	w.announce("dave", 2550, []string{"o", "<dave>", "2550"}, []string{"maintainers"})
	r := w.refused("alice", "alice", 2600, Intent{Action: ActAdd, Subject: pk("dave")}, "co-maintainer-third-party-assignment")
	if !strings.Contains(r.Message, "roster repo edit --add-moderator "+npub(pk("dave"))) || strings.Contains(r.Message, "--add-maintainer") {
		t.Fatal(r.Message)
	}
	if len(r.Commands) == 0 || r.Commands[0].Line() != graph.CommandAddModerator(pk("dave")).Line() {
		t.Fatalf("the first command is the moderator cover: %+v", r.Commands)
	}
	br := w.refused("bob", "alice", 2600, Intent{Action: ActFollowLead}, "third-party-assignment")
	if !strings.Contains(br.Message, "--add-moderator "+npub(pk("dave"))) {
		t.Fatal(br.Message)
	}
	p := w.run("alice", "alice", 2700, Intent{Action: ActAddModerator, Subject: pk("dave")})
	sameSet(t, "moderators gained", p.Sim.ModeratorsGained, "dave") // dave already acknowledged
	w.refused("alice", "alice", 2750, Intent{Action: ActAdd, Subject: pk("carol")}, "co-maintainer-third-party-assignment")
	p = w.run("bob", "alice", 2800, Intent{Action: ActFollowLead})
	wantTags(t, p, []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"o", "<dave>", "2700", "defer"}, mt("alice", "bob"))
	if len(p.Sim.ModeratorsLost) != 0 || len(p.Sim.Lost) != 0 {
		t.Fatalf("follow-lead changed membership: %+v", p.Sim)
	}
	w.run("alice", "alice", 2900, Intent{Action: ActAdd, Subject: pk("carol")})
}

// Co-maintainers copy moderator history as defer, like maintainers
// (maintainers.md "Replicated role history").
func TestFollowLeadCopiesModeratorHistoryAsDefer(t *testing.T) {
	w := threePerson(t)
	w.run("alice", "alice", 3200, Intent{Action: ActAddModerator, Subject: pk("dave")})
	w.run("dave", "alice", 3300, Intent{Action: ActAcceptModerator})
	p := w.run("bob", "alice", 3400, Intent{Action: ActFollowLead})
	if got := aliasTags(p.Tags); !strings.Contains(got, `["o","<dave>","3200","defer"]`) {
		t.Fatalf("bob's copy of dave's moderator interval: %s", got)
	}
	if len(p.Sim.ModeratorsGained) != 0 || len(p.Sim.ModeratorsLost) != 0 {
		t.Fatalf("a copy changes nobody's role: %+v", p.Sim)
	}
}
