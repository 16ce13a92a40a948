package preflight

import (
	"strings"
	"testing"
)

// maintainers.md "Legacy migration": "A writer MUST classify preserved legacy
// relationships in their destination roles before it generates role
// transitions." Leaving from a role-less (ngit-shaped) announcement
// materializes the implicit membership as an untimed self-m and the listing of
// the legacy-inferred lead as an untimed M redirect, then ends the self-m;
// it is not refused with "run follow-lead first".
func TestLeaveFromLegacyAnnouncementClassifiesThenEndsSelfRole(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	w.announce("bob", 110, []string{"maintainers", "<bob>", "<alice>"})
	w.announce("carol", 120, []string{"maintainers", "<carol>", "<alice>"})
	if r := w.resolve("alice", 1000); r.LeadSource != "legacy_inferred" || r.Lead != pk("alice") {
		t.Fatalf("lead %s (%s)", aliasText(r.Lead), r.LeadSource)
	}
	// The legacy-inferred lead itself cannot leave without handing over.
	r := w.refused("alice", "alice", 1000, Intent{Action: ActLeave}, "lead-cannot-leave")
	if !strings.Contains(r.Message, "legacy maintainer listings infer you") {
		t.Fatal(r.Message)
	}
	p := w.run("bob", "alice", 1000, Intent{Action: ActLeave})
	wantTags(t, p, []string{"m", "<bob>", "0", "1000"}, []string{"M", "<alice>"}, []string{"maintainers", "<alice>"})
	sameSet(t, "lost", p.Sim.Lost, "bob")
	sameSet(t, "maintainers after", confirmed(p.After), "alice", "carol")
}

// "If leaving would also disconnect other maintainers, ngit refuses": the
// legacy path runs the same partition check.
func TestLeaveFromLegacyAnnouncementThatDisconnectsOthersIsRefused(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	w.announce("bob", 110, []string{"maintainers", "<bob>", "<alice>", "<dave>"})
	w.announce("carol", 120, []string{"maintainers", "<carol>", "<alice>"})
	w.announce("dave", 130, []string{"maintainers", "<dave>", "<bob>"})
	before := confirmed(w.resolve("alice", 1000))
	if strings.Join(before, ",") != "<alice>,<bob>,<carol>,<dave>" {
		t.Fatalf("before: %v", before)
	}
	r := w.refused("bob", "alice", 1000, Intent{Action: ActLeave}, "removal-partitions")
	if !strings.Contains(r.Message, npub(pk("dave"))) {
		t.Fatal(r.Message)
	}
}
