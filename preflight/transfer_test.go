package preflight

import (
	"strings"
	"testing"
)

// "If Bob has not first published every confirmed co-maintainer and
// outstanding invitation in his active roster, Alice's command fails and
// names each missing person", with both remedies and no force.
func TestLeadTransferRefusedWhileProposedRosterOmitsMembers(t *testing.T) {
	w := threePerson(t)
	w.run("alice", "alice", 3150, Intent{Action: ActAdd, Subject: pk("eve")}) // outstanding invitation
	// Bob hand-prepares a self-M without Carol or Eve (as another client might).
	w.announce("bob", 3200, []string{"M", "<alice>", "2000", "3200"}, []string{"m", "<bob>", "2000", "3200"},
		[]string{"M", "<bob>", "3200"}, []string{"m", "<alice>", "3200"}, []string{"maintainers", "<alice>", "<bob>"})
	r := w.refused("alice", "alice", 3300, Intent{Action: ActLead, Lead: pk("bob")}, "lead-transfer-incomplete-roster")
	for _, s := range []string{
		"cannot transfer the lead to " + npub(pk("bob")), npub(pk("carol")), "withdraw these maintainer invitations", npub(pk("eve")),
		"roster repo edit --lead-maintainer " + npub(pk("bob")) + "  # run by " + npub(pk("bob")),
		"roster repo edit --remove-maintainer " + npub(pk("carol")), "roster repo edit --remove-maintainer " + npub(pk("eve")),
	} {
		if !strings.Contains(r.Message, s) {
			t.Fatalf("message lacks %q:\n%s", s, r.Message)
		}
	}
}

// maintainers.md "Transferring the lead": Bob prepares with the complete
// roster, Alice points to Bob and becomes co-maintainer, Carol follows.
func TestLeadTransferWithCoMaintainerFollowing(t *testing.T) {
	w := threePerson(t)
	w.run("bob", "alice", 3200, Intent{Action: ActFollowLead})
	w.run("carol", "alice", 3250, Intent{Action: ActFollowLead})

	// Bob prepares: closes M:alice and self-m at 4000, self-M from 4000,
	// and assigns the complete roster (Carol's copy becomes his assignment).
	p := w.run("bob", "bob", 4000, Intent{Action: ActLead, Lead: pk("bob")})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, mt("alice", "bob", "carol"), []string{"M", "<alice>", "2000", "4000"}, []string{"m", "<bob>", "2000", "4000"}, []string{"m", "<carol>", "3000"},
		[]string{"M", "<bob>", "4000"}, []string{"m", "<alice>"})
	if r := w.resolve("alice", 4000); r.Lead != pk("alice") {
		t.Fatalf("alice's coordinate should still lead to alice, got %s", aliasText(r.Lead))
	}

	// Alice points to Bob: self-M closed, self-m and M:bob active, everything else defer.
	p = w.run("alice", "alice", 5000, Intent{Action: ActLead, Lead: pk("bob")})
	wantTags(t, p, []string{"M", "<alice>", "0", "5000"}, []string{"m", "<bob>", "2000", "defer"}, []string{"m", "<carol>", "3000", "defer"},
		[]string{"m", "<alice>", "5000"}, []string{"M", "<bob>", "5000"}, mt("alice", "bob"))
	r := w.resolve("alice", 5000)
	if r.Lead != pk("bob") || len(r.Component) != 3 {
		t.Fatalf("after handover lead %s component %d", aliasText(r.Lead), len(r.Component))
	}

	// Carol follows: direct M to Bob, M:alice closed, history copied.
	p = w.run("carol", "alice", 5100, Intent{Action: ActFollowLead})
	if p.SwitchTo == nil || p.SwitchTo.Pubkey != pk("bob") {
		t.Fatalf("follow-lead should switch the checkout to bob, got %+v", p.SwitchTo)
	}
	tags := aliasTags(p.Tags)
	for _, s := range []string{`["M","<alice>","3000","5100"]`, `["m","<carol>","3000"]`, `["M","<bob>","5100"]`} {
		if !strings.Contains(tags, s) {
			t.Fatalf("carol's follow-lead lacks %s: %s", s, tags)
		}
	}
	if r := w.resolve("bob", 5100); len(r.Component) != 3 || r.Lead != pk("bob") {
		t.Fatalf("bob-rooted component %v", r.Component)
	}
}

// "Bob must still absorb ... before claiming a complete prepared roster":
// the target must have prepared (active self-M) before anyone points to them.
func TestLeadTransferRequiresPreparedTarget(t *testing.T) {
	w := twoPerson(t)
	r := w.refused("alice", "alice", 3000, Intent{Action: ActLead, Lead: pk("bob")}, "lead-not-prepared")
	if !strings.Contains(r.Message, "roster repo edit --lead-maintainer "+npub(pk("bob"))) {
		t.Fatal(r.Message)
	}
	w.refused("alice", "alice", 3000, Intent{Action: ActLead, Lead: pk("carol")}, "lead-not-confirmed")
}

// "A leadership transfer cannot complete while the proposed lead's history is
// missing resolved transitions ... The new lead first acknowledges the
// retained view and publishes the complete active roster." A prepared roster
// that still carries Carol's invitation time instead of her acceptance is
// refused; preparing again records her effective start, and the transfer
// then goes through.
func TestLeadTransferRefusedWhileProposedLeadHistoryMissesATransition(t *testing.T) {
	w := threePerson(t)
	w.announce("bob", 4000, []string{"M", "<alice>", "2000", "4000"}, []string{"m", "<bob>", "2000", "4000"}, []string{"M", "<bob>", "4000"},
		[]string{"m", "<alice>"}, []string{"m", "<carol>", "2500"}, mt("alice", "bob", "carol"))
	r := w.refused("alice", "alice", 5000, Intent{Action: ActLead, Lead: pk("bob")}, "lead-history-incomplete")
	prepare := Intent{Action: ActLead, Lead: pk("bob")}.Command()
	if !strings.Contains(r.Message, npub(pk("carol"))+" (effective start 1970-01-01 00:50:00 UTC)") || r.Commands[0].String() != prepare+"  # run by "+npub(pk("bob")) {
		t.Fatalf("%v\n%s", r.Commands, r.Message)
	}
	p := w.run("bob", "bob", 4100, Intent{Action: ActLead, Lead: pk("bob")})
	if got := aliasTags(p.Tags); !strings.Contains(got, `["m","<carol>","3000"]`) {
		t.Fatalf("re-preparation did not acknowledge Carol's start: %s", got)
	}
	w.run("alice", "alice", 5000, Intent{Action: ActLead, Lead: pk("bob")})
}
