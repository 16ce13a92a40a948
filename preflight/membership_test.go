package preflight

import (
	"slices"
	"strings"
	"testing"
)

// twoPerson builds Alice (lead) + Bob (confirmed, acknowledged) at T=2000.
func twoPerson(t *testing.T) *world {
	w := &world{t: t}
	w.announce("alice", 100)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	w.run("alice", "alice", 2100, Intent{Action: ActAcknowledge, Subject: pk("bob")})
	return w
}

// threePerson adds Carol (accepted at 3000, acknowledged) and has Bob follow.
func threePerson(t *testing.T) *world {
	w := twoPerson(t)
	w.run("alice", "alice", 2500, Intent{Action: ActAdd, Subject: pk("carol")})
	w.run("carol", "alice", 3000, Intent{Action: ActAccept})
	w.run("alice", "alice", 3100, Intent{Action: ActAcknowledge, Subject: pk("carol")})
	return w
}

// "Supplying --no-lead-maintainer emits only m" (Required client invariants).
func TestFirstInviteWithNoLeadEmitsOnlyM(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	p := w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob"), NoLead: true})
	wantTags(t, p, []string{"m", "<bob>", "1000"}, []string{"maintainers", "<bob>"})
}

// "Every other co-maintainer ... is prompted to run ngit repo follow-lead":
// Bob's follow-lead copies Carol's effective interval as historical-only and
// keeps his own acceptance active.
func TestFollowLeadCopiesThirdPartyHistoryAsDefer(t *testing.T) {
	w := threePerson(t)
	r := w.resolve("alice", 3200)
	if got := confirmed(r); strings.Join(got, ",") == "" || len(got) != 3 {
		t.Fatalf("confirmed %v", got)
	}
	p := w.run("bob", "alice", 3200, Intent{Action: ActFollowLead})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, mt("alice", "bob"), []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "3000", "defer"})
	// Idempotent: a second run has nothing to change.
	w.refused("bob", "alice", 3300, Intent{Action: ActFollowLead}, "nothing-to-change")
	if acks := w.resolve("alice", 3300); len(acks.PendingAcknowledgements) != 0 {
		t.Fatalf("pending acknowledgements after follow-lead: %+v", acks.PendingAcknowledgements)
	}
}

// "In a lead-shaped repository, ngit accepts this command only from the resolved lead."
func TestOnlyResolvedLeadAddsInLeadShapedRepository(t *testing.T) {
	w := twoPerson(t)
	r := w.refused("bob", "alice", 3000, Intent{Action: ActAdd, Subject: pk("carol")}, "only-lead-manages-roster")
	if !strings.Contains(r.Message, "only the resolved lead should add maintainers") || !strings.Contains(r.Message, npub(pk("alice"))) ||
		!strings.Contains(r.Message, "roster repo edit --add-maintainer "+npub(pk("carol"))) {
		t.Fatalf("message: %s", r.Message)
	}
	w.refused("bob", "alice", 3000, Intent{Action: ActRemove, Subject: pk("alice")}, "only-lead-manages-roster")
}

// "The flag cannot remove an existing lead."
func TestNoLeadCannotRemoveExistingLead(t *testing.T) {
	w := twoPerson(t)
	w.refused("alice", "alice", 3000, Intent{Action: ActAdd, Subject: pk("carol"), NoLead: true}, "lead-exists")
}

// "Once a repository is explicitly leadless, every add or remove must include
// exactly one governance choice" — and a previous --no-lead is not reused.
func TestLeadlessRepositoryRequiresGovernanceChoiceEveryTime(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob"), NoLead: true})
	p := w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, mt("alice", "bob"), []string{"m", "<alice>", "2000"}, []string{"m", "<bob>", "2000"})
	if r := w.resolve("alice", 2000); string(r.LeadSource) != "explicit_none" || len(r.Component) != 2 {
		t.Fatalf("lead source %s component %v", r.LeadSource, r.Component)
	}
	r := w.refused("alice", "alice", 3000, Intent{Action: ActAdd, Subject: pk("carol")}, "governance-choice-required")
	for _, s := range []string{"a lead maintainer must be assigned for this membership change", "--lead-maintainer <npub>", "--no-lead-maintainer"} {
		if !strings.Contains(r.Message, s) {
			t.Fatalf("message lacks %q: %s", s, r.Message)
		}
	}
	// Any confirmed maintainer may make a leadless change with the flag.
	p = w.run("bob", "alice", 3000, Intent{Action: ActAdd, Subject: pk("carol"), NoLead: true})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, mt("alice", "bob", "carol"), []string{"m", "<alice>", "2000"}, []string{"m", "<bob>", "2000"}, []string{"m", "<carol>", "3000"})
	// Removing still requires the choice.
	w.refused("bob", "alice", 3100, Intent{Action: ActRemove, Subject: pk("carol")}, "governance-choice-required")
	w.run("bob", "alice", 3100, Intent{Action: ActRemove, Subject: pk("carol"), NoLead: true})
}

// "--lead-maintainer and --no-lead-maintainer": exactly one; --fix alone.
func TestContradictoryFlagsAreUsageErrors(t *testing.T) {
	w := twoPerson(t)
	r := w.refused("alice", "alice", 3000, Intent{Action: ActAdd, Subject: pk("carol"), NoLead: true, Lead: pk("alice")}, "usage")
	if !r.Usage {
		t.Fatal("not marked usage")
	}
	r = w.refused("alice", "alice", 3000, Intent{Action: ActFix, Subject: pk("carol")}, "usage")
	if !strings.Contains(r.Message, "--fix-maintainers must be run alone") {
		t.Fatal(r.Message)
	}
}

// "--force ... never overrides additional membership, identity, history, or
// object-availability errors": refused for everything but add/accept, and on
// add/accept when there is no state-only conflict.
func TestForceRefusedOutsideStateOnlyConflict(t *testing.T) {
	w := twoPerson(t)
	w.refused("alice", "alice", 3000, Intent{Action: ActRemove, Subject: pk("bob"), Force: true}, "force-not-available")
	w.refused("alice", "alice", 3000, Intent{Action: ActLead, Lead: pk("bob"), Force: true}, "force-not-available")
	w.refused("bob", "alice", 3000, Intent{Action: ActLeave, Force: true}, "force-not-available")
	w.refused("alice", "alice", 3000, Intent{Action: ActAdd, Subject: pk("carol"), Force: true}, "force-not-applicable")
}

// mt is the expected `maintainers` projection of aliases (graph sorts by pubkey).
func mt(aliases ...string) []string {
	out := []string{"maintainers"}
	sorted := append([]string{}, aliases...)
	slices.SortFunc(sorted, func(a, b string) int { return strings.Compare(pk(a), pk(b)) })
	for _, a := range sorted {
		out = append(out, "<"+a+">")
	}
	return out
}
