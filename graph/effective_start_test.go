package graph

import "testing"

// "Current authority in a lead-shaped repository is the reciprocal fixpoint
// seeded by the lead's active roster" and "When the lead observes a
// confirmation whose effective start is not recorded in its active
// assignment, every ngit command shows --acknowledge-maintainer-change":
// in an explicit view the roster coordinator's active record is the
// assignment an effective start is measured from. A co-maintainer's lead
// pointer (Carol's M:Alice, left over from before the handover) is her
// acknowledgement, not an assignment of Alice, so her follow-lead must not
// move Alice's effective start (it did: the earliest listing won, and
// follow-lead needed several passes to become idempotent).
func TestEffectiveStartInLeadViewComesFromTheLeadRecord(t *testing.T) {
	// Alice led from the start; Bob joined at 200, Carol at 300. Bob
	// prepared at 350 with the complete roster; Alice pointed to him at 400.
	bob := ann(t, "bob", 350,
		[]string{"M", "<alice>", "200", "350"}, []string{"m", "<bob>", "200", "350"}, []string{"M", "<bob>", "350"},
		[]string{"m", "<alice>", "350"}, []string{"m", "<carol>", "300"},
		[]string{"maintainers", "<alice>", "<bob>", "<carol>"})
	alice := ann(t, "alice", 400,
		[]string{"M", "<alice>", "0", "400"}, []string{"m", "<alice>", "400"}, []string{"M", "<bob>", "400"},
		[]string{"m", "<bob>", "200", "defer"}, []string{"m", "<carol>", "300", "defer"},
		[]string{"maintainers", "<alice>", "<bob>"})
	carolBefore := ann(t, "carol", 300,
		[]string{"M", "<alice>", "300"}, []string{"m", "<carol>", "300"}, []string{"m", "<bob>", "200", "defer"},
		[]string{"maintainers", "<alice>", "<carol>"})
	carolAfter := ann(t, "carol", 500,
		[]string{"M", "<alice>", "300", "500"}, []string{"M", "<bob>", "500"}, []string{"m", "<carol>", "300"},
		[]string{"m", "<bob>", "200", "defer"}, []string{"m", "<alice>", "350", "defer"},
		[]string{"maintainers", "<bob>", "<carol>"})

	before := resolveAs(t, "bob", "bob", bob, alice, carolBefore)
	after := resolveAs(t, "bob", "bob", bob, alice, carolAfter)
	for _, r := range []*Resolution{before, after} {
		if r.LeadSource != LeadExplicit || r.Lead != pk("bob") || !r.Confirmed(pk("alice")) || !r.Confirmed(pk("carol")) {
			t.Fatalf("setup: %s %v", r.LeadSource, r.Maintainers)
		}
	}
	for _, who := range []string{"alice", "carol"} {
		b, _ := before.EffectiveStart(pk(who))
		a, _ := after.EffectiveStart(pk(who))
		if a != b {
			t.Errorf("%s: a co-maintainer's follow-lead moved the effective start from %d to %d", who, b, a)
		}
	}
	if eff, _ := before.EffectiveStart(pk("alice")); eff != 350 {
		t.Errorf("alice: effective start %d, want the lead's assignment 350 (her own role is continuous from 0)", eff)
	}
	// One follow-lead pass is enough: Carol's synced copy agrees with the
	// view her own sync produced.
	for _, p := range resolveAs(t, "bob", "carol", bob, alice, carolAfter).PendingAcknowledgements {
		if p.Author == pk("carol") {
			t.Errorf("carol still has history to sync after following: %+v", p)
		}
	}
	// Bob's record already states both starts: nothing to acknowledge.
	for _, p := range before.PendingAcknowledgements {
		if p.Author == pk("bob") {
			t.Errorf("lead asked to acknowledge %+v", p)
		}
	}
}

// The acceptance rule itself is unchanged: the later of the lead's
// assignment and the subject's acknowledgement.
func TestEffectiveStartIsLaterOfLeadAssignmentAndAcceptance(t *testing.T) {
	alice := ann(t, "alice", 100, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"})
	bob := ann(t, "bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	r := resolve(t, "alice", alice, bob)
	if eff, _ := r.EffectiveStart(pk("bob")); eff != 200 {
		t.Fatalf("effective start %d, want acceptance 200", eff)
	}
	// Carol, outside the lead roster, is retained only by Bob's active
	// third-party m: her assignment is that edge.
	bob2 := ann(t, "bob", 300, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<carol>", "300"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	carol := ann(t, "carol", 350, []string{"M", "<alice>", "350"}, []string{"m", "<carol>", "350"}, []string{"m", "<bob>", "200", "defer"}, []string{"maintainers", "<alice>", "<carol>"})
	r = resolve(t, "alice", alice, bob2, carol)
	if !r.Confirmed(pk("carol")) {
		t.Fatal("carol not retained by bob's edge")
	}
	if eff, _ := r.EffectiveStart(pk("carol")); eff != 350 {
		t.Fatalf("carol: effective start %d, want 350", eff)
	}
}
