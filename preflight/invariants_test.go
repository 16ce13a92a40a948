package preflight

import (
	"strings"
	"testing"
)

// Tests named after the write-side "Required client invariants" of
// maintainers.md that no other test states directly (docs/membership.md maps
// every write-side invariant to its tests).

// "A fresh one-person repository emits no role or maintainers tag": no
// membership command run by a sole maintainer, short of a first add, writes
// roles into their announcement.
func TestFreshOneMaintainerRepositoryEmitsNoRoleOrMaintainersTag(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"name", "x"})
	w.refused("alice", "alice", 1000, Intent{Action: ActFix}, "nothing-to-repair")
	w.refused("alice", "alice", 1000, Intent{Action: ActFollowLead}, "nothing-to-change")
	w.refused("alice", "alice", 1000, Intent{Action: ActLeave}, "lead-cannot-leave")
	w.refused("alice", "alice", 1000, Intent{Action: ActAcknowledge, Subject: pk("bob")}, "nothing-to-acknowledge")
	if r := w.resolve("alice", 1000); r.LeadSource != "implicit_sole" {
		t.Fatalf("lead source %s", r.LeadSource)
	}
}

// "Ngit's ordinary acceptance command records an active M naming the inviter
// and an active self-m naming the invitee ... A non-self lead M ending in
// defer is valid history but cannot satisfy acceptance ... Acceptance cannot
// add unrelated people or self-promote."
func TestAcceptanceRecordsActiveLeadMAndSelfMNeverADeferCopy(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	// A deferred lead M beside an active self-m does not confirm Bob ...
	w.announce("bob", 1500, []string{"M", "<alice>", "500", "defer"}, []string{"m", "<bob>", "1500"}, []string{"maintainers", "<bob>"})
	if r := w.resolve("alice", 1600); strings.Contains(strings.Join(confirmed(r), ","), "<bob>") {
		t.Fatalf("a deferred lead M satisfied acceptance: %v", confirmed(r))
	}
	// ... and accept does not silently choose a numeric end to reopen it.
	r := w.refused("bob", "alice", 2000, Intent{Action: ActAccept}, "history-blocks-change")
	if !strings.Contains(r.Message, "roster will not choose for you") || !strings.Contains(r.Message, `"500","defer"]`) {
		t.Fatal(r.Message)
	}
	// The ordinary acceptance: active M to the inviter, active self-m, nothing else.
	w = &world{t: t}
	w.announce("alice", 100)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	p := w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	wantTags(t, p, []string{"clone"}, []string{"web"}, []string{"relays"}, mt("alice", "bob"), []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"})
	sameSet(t, "newly confirmed", p.Sim.NewlyConfirmed, "bob")
	if strings.Contains(aliasTags(p.Tags), `["M","<bob>"`) {
		t.Fatalf("acceptance self-promoted: %s", aliasTags(p.Tags))
	}
}

// "In a lead-shaped repository ngit never authors a co-maintainer's active
// third-party assignment": across invitation, acceptance, follow-lead,
// handover and follow again, no co-maintainer's published announcement
// actively assigns anybody but themselves and their lead.
func TestNeverAuthorsACoMaintainersActiveThirdPartyAssignment(t *testing.T) {
	w := threePerson(t)
	w.run("bob", "alice", 3200, Intent{Action: ActFollowLead})
	w.run("carol", "alice", 3300, Intent{Action: ActFollowLead})
	w.run("bob", "bob", 4000, Intent{Action: ActLead, Lead: pk("bob")})
	w.run("alice", "alice", 5000, Intent{Action: ActLead, Lead: pk("bob")})
	w.run("carol", "alice", 5100, Intent{Action: ActFollowLead})
	w.refused("carol", "bob", 5200, Intent{Action: ActAdd, Subject: pk("dave")}, "only-lead-manages-roster")
	v := fromResolution(w.resolve("bob", 5300), pk("bob"))
	if v.lead != pk("bob") {
		t.Fatalf("lead %s", aliasText(v.lead))
	}
	for _, c := range []string{"alice", "carol"} {
		if got := v.thirdPartyAssignments(pk(c)); len(got) != 0 {
			t.Fatalf("%s actively assigns %v: %s", c, aliasText(strings.Join(got, " ")), aliasTags(v.latest[pk(c)].Tags))
		}
	}
}

// "A legacy repo follow-lead materializes the publisher's implicit
// membership as untimed self-m ... A direct pointer to a lead the publisher
// did not previously list is a new relationship and starts at the replacement
// timestamp."
func TestLegacyFollowLeadToAnUnlistedLeadStartsThePointerNow(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"M", "<alice>"}, []string{"m", "<bob>"}, []string{"m", "<carol>"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	w.announce("bob", 110, []string{"M", "<alice>"}, []string{"m", "<bob>"}, []string{"maintainers", "<alice>", "<bob>"})
	w.announce("carol", 120, []string{"maintainers", "<carol>", "<bob>"}) // legacy, lists Bob but not the lead
	sameSet(t, "confirmed", confirmed(w.resolve("alice", 1000)), "alice", "bob", "carol")
	p := w.run("carol", "alice", 1000, Intent{Action: ActFollowLead})
	got := aliasTags(p.Tags)
	for _, want := range []string{`["m","<carol>"]`, `["M","<alice>","1000"]`} {
		if !strings.Contains(got, want) {
			t.Fatalf("replacement lacks %s: %s", want, got)
		}
	}
	if strings.Contains(got, `["m","<carol>","`) {
		t.Fatalf("the implicit membership must stay untimed (no fabricated transition): %s", got)
	}
}

// "An existing co-maintainer accepting a lead role closes self-m and opens
// self-M at the same boundary. ... The first invitation from an implicit sole
// maintainer instead materializes that signer directly as M".
func TestCoMaintainerBecomingLeadClosesSelfMAndOpensSelfMAtOneBoundary(t *testing.T) {
	w := threePerson(t)
	p := w.run("bob", "bob", 4000, Intent{Action: ActLead, Lead: pk("bob")})
	got := aliasTags(p.Tags)
	for _, want := range []string{`["m","<bob>","2000","4000"]`, `["M","<bob>","4000"]`} {
		if !strings.Contains(got, want) {
			t.Fatalf("replacement lacks %s: %s", want, got)
		}
	}
	first := &world{t: t}
	first.announce("alice", 100)
	p = first.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	wantTags(t, p, []string{"M", "<alice>"}, []string{"m", "<bob>", "1000"}, mt("alice", "bob"))
}

// "Every mutation preserves unrelated relationships, role intervals,
// replicated history, metadata, and unknown tags": each command, run on an
// announcement carrying metadata, an unknown tag and an unparseable
// third-party record, keeps all of them byte for byte and in order.
func TestEveryMutationPreservesUnrelatedTagsInOrder(t *testing.T) {
	all := [][]string{{"x-first", "1"}, {"web", "https://e.x"}, {"m", "not-hex", "5"}, {"zz", "keep", "2"}}
	var extras [][]string
	w := threePerson(t)
	decorate := func(author string, at int64) {
		var tags [][]string
		extras = all
		if evt := fromResolution(w.resolve("alice", at), pk(author)).latest[pk(author)]; evt != nil {
		next:
			for _, tg := range evt.Tags[1:] { // without d and earlier decorations
				for _, e := range all {
					if strings.Join(tg, "\x00") == strings.Join(e, "\x00") {
						continue next
					}
				}
				tags = append(tags, tg)
			}
		} else {
			// A role-less announcement with a role record would be role-aware
			// without a projection; a newcomer's carries metadata only.
			extras = [][]string{all[0], all[1], all[3]}
		}
		out := append([][]string{extras[0]}, tags...)
		out = append(out, extras[1:]...)
		w.announce(author, at, out...)
	}
	kept := func(step string, p *Plan) {
		t.Helper()
		if p.Tags[0][0] != "d" {
			t.Fatalf("%s: d is not first: %s", step, aliasTags(p.Tags))
		}
		var got [][]string
		for _, tg := range p.Tags {
			for _, e := range extras {
				if strings.Join(tg, "\x00") == strings.Join(e, "\x00") {
					got = append(got, tg)
				}
			}
		}
		if len(got) != len(extras) {
			t.Fatalf("%s: kept %v of %v: %s", step, got, extras, aliasTags(p.Tags))
		}
		for i := range extras {
			if strings.Join(got[i], ",") != strings.Join(extras[i], ",") {
				t.Fatalf("%s: order changed: %v", step, got)
			}
		}
	}
	steps := []struct {
		author string
		at     int64
		it     Intent
	}{
		{"alice", 3200, Intent{Action: ActAdd, Subject: pk("dave")}},
		{"dave", 3300, Intent{Action: ActAccept}},
		{"alice", 3400, Intent{Action: ActAcknowledge, Subject: pk("dave")}},
		{"bob", 3500, Intent{Action: ActFollowLead}},
		{"carol", 3600, Intent{Action: ActLeave}},
		{"bob", 3700, Intent{Action: ActLead, Lead: pk("bob")}},
		{"alice", 3800, Intent{Action: ActLead, Lead: pk("bob")}},
	}
	for _, s := range steps {
		decorate(s.author, s.at-50)
		kept(s.it.Command()+" as "+s.author, w.run(s.author, "alice", s.at, s.it))
	}
}
