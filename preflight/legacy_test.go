package preflight

import (
	"strings"
	"testing"
)

// ngit-shaped legacy announcements: Alice and Bob list each other in
// `maintainers`; Carol lists Alice. Alice's listing wins the vote.
func legacyWorld(t *testing.T) *world {
	w := &world{t: t}
	w.announce("alice", 100, []string{"name", "x"}, []string{"maintainers", "<alice>", "<bob>"}, []string{"alt", "git repository: x"})
	w.announce("bob", 110, []string{"maintainers", "<bob>", "<alice>"})
	return w
}

// "A writer MUST classify preserved legacy relationships in their
// destination roles before it generates role transitions": a sole legacy
// author's first add makes them untimed self-M, never m then M.
func TestSoleLegacyAuthorFirstAddMaterializesUntimedSelfM(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"maintainers", "<alice>"}, []string{"alt", "git repository: x"})
	p := w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "1000"}, mt("alice", "bob"), []string{"alt", "git repository: x"})
}

// "Require the same choice when a multi-maintainer legacy view has no
// explicit lead declaration"; the error may recommend the inferred lead.
func TestLegacyMultiMaintainerRequiresGovernanceChoice(t *testing.T) {
	w := legacyWorld(t)
	r := w.refused("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("carol")}, "governance-choice-required")
	if !strings.Contains(r.Message, "a lead maintainer must be assigned for this membership change") {
		t.Fatal(r.Message)
	}
}

// "The next membership action normally materializes that pubkey with
// --lead-maintainer while preserving every edge": untimed self-M and untimed
// m for each preserved listing; only the new relationship is timestamped.
func TestLegacyMigrationWithLeadChoice(t *testing.T) {
	w := legacyWorld(t)
	lead := w.resolve("alice", 1000)
	if string(lead.LeadSource) != "legacy_inferred" && string(lead.LeadSource) != "none" {
		t.Fatalf("lead source %s", lead.LeadSource)
	}
	p := w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("carol"), Lead: pk("alice")})
	wantTags(t, p, []string{"name", "x"}, []string{"M", "<alice>"}, []string{"m", "<bob>"}, []string{"m", "<carol>", "1000"},
		mt("alice", "bob", "carol"), []string{"alt", "git repository: x"})
	if len(p.Sim.Lost) != 0 {
		t.Fatalf("migration lost %v", p.Sim.Lost)
	}
	// Bob, still legacy, follows the now explicit lead: implicit membership
	// becomes untimed self-m and his listing of Alice an untimed M.
	p = w.run("bob", "alice", 1100, Intent{Action: ActFollowLead})
	wantTags(t, p, []string{"m", "<bob>"}, []string{"M", "<alice>"}, mt("alice", "bob"))
}

// "--no-lead-maintainer adopts indexed m without M".
func TestLegacyMigrationWithNoLead(t *testing.T) {
	w := legacyWorld(t)
	p := w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("carol"), NoLead: true})
	wantTags(t, p, []string{"name", "x"}, []string{"m", "<bob>"}, []string{"m", "<carol>", "1000"}, mt("bob", "carol"), []string{"alt", "git repository: x"})
	if r := w.resolve("alice", 1000); string(r.LeadSource) != "explicit_none" {
		t.Fatalf("lead source %s", r.LeadSource)
	}
}

// maintainers.md "The compatibility roster contradicts indexed roles": every
// other edit fails and repeats the repair; the repair changes only the
// projection, keeping every indexed record byte for byte.
func TestFixMaintainersRepairsOnlyTheProjection(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"name", "x"}, []string{"M", "<alice>"}, []string{"m", "<bob>", "050"}, []string{"m", "<carol>", "60", "defer"},
		[]string{"m", "<dave>", "10", "20"}, []string{"o", "<eve>", "5"}, []string{"maintainers", "<alice>", "<carol>", "<dave>"}, []string{"x-unknown", "keep", "me"})
	r := w.refused("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("tom")}, "maintainers-projection-mismatch")
	for _, s := range []string{"missing active roles: " + npub(pk("bob")), "listed without an active role:", npub(pk("carol")), npub(pk("dave")),
		"roster repo edit --fix-maintainers", "this repair does not add or remove active maintainers"} {
		if !strings.Contains(r.Message, s) {
			t.Fatalf("message lacks %q:\n%s", s, r.Message)
		}
	}
	p := w.run("alice", "alice", 1000, Intent{Action: ActFix})
	wantTags(t, p, []string{"name", "x"}, []string{"M", "<alice>"}, []string{"m", "<bob>", "050"}, []string{"m", "<carol>", "60", "defer"},
		[]string{"m", "<dave>", "10", "20"}, []string{"o", "<eve>", "5"}, mt("alice", "bob"), []string{"x-unknown", "keep", "me"})
	w.refused("alice", "alice", 1100, Intent{Action: ActFix}, "nothing-to-repair")
}

// "The author's own announcement preserves such a record byte-for-byte
// across unrelated edits": unparseable records, unknown tags and metadata
// keep their order and bytes through an add.
func TestEditPreservesUnparseableRecordsAndUnknownTags(t *testing.T) {
	w := twoPerson(t)
	cur := w.resolve("alice", 2100).Announcements[pk("alice")].Event
	tags := [][]string{}
	for _, tg := range cur.Tags[1:] {
		tags = append(tags, tg)
	}
	tags = append(tags[:len(tags)-1], []string{"m", "not-hex", "5"}, []string{"o", "<tom>", "x"}, []string{"web", "https://e.x"}, tags[len(tags)-1], []string{"zz", "1"})
	w.announce("alice", 2200, tags...)
	p := w.run("alice", "alice", 3000, Intent{Action: ActAdd, Subject: pk("carol")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, []string{"m", "not-hex", "5"}, []string{"o", "<tom>", "x"},
		[]string{"m", "<carol>", "3000"}, []string{"web", "https://e.x"}, mt("alice", "bob", "carol"), []string{"zz", "1"})
}

// "Self-defer ... block only the affected author's announcement mutations",
// and the one combined acceptance repair.
func TestSelfDeferGatesAuthorAndAcceptRepairs(t *testing.T) {
	w := twoPerson(t)
	w.run("alice", "alice", 2500, Intent{Action: ActAdd, Subject: pk("carol")})
	w.announce("carol", 2600, []string{"M", "<alice>", "2600"}, []string{"m", "<carol>", "2600", "defer"}, []string{"maintainers", "<alice>"})
	w.refused("carol", "alice", 2700, Intent{Action: ActLeave}, "invalid-self-role")
	p := w.run("carol", "alice", 2700, Intent{Action: ActAccept})
	wantTags(t, p, []string{"M", "<alice>", "2600"}, []string{"m", "<carol>", "2600", "2700", "2700"}, mt("alice", "carol"))
	// A longer self-defer history needs a separate signer-reviewed repair.
	w.announce("dave", 2800, []string{"m", "<dave>", "10", "20", "30", "defer"}, []string{"maintainers"})
	w.run("alice", "alice", 2900, Intent{Action: ActAdd, Subject: pk("dave")})
	w.refused("dave", "alice", 3000, Intent{Action: ActAccept}, "invalid-self-role")
}

// "A pending or conflicting lead path blocks instead of treating the flag as an override."
func TestPendingLeadPathBlocksMembershipChanges(t *testing.T) {
	w := twoPerson(t)
	// Alice points to Carol, who never accepted: the path is pending.
	w.announce("alice", 3000, []string{"M", "<carol>", "3000"}, []string{"m", "<alice>", "3000"}, []string{"m", "<bob>", "2000"}, []string{"maintainers", "<carol>", "<alice>", "<bob>"})
	for _, it := range []Intent{{Action: ActAdd, Subject: pk("dave")}, {Action: ActAdd, Subject: pk("dave"), NoLead: true},
		{Action: ActRemove, Subject: pk("bob")}, {Action: ActLead, Lead: pk("alice")}} {
		w.refused("alice", "alice", 3100, it, "lead-path-unresolved")
	}
}
