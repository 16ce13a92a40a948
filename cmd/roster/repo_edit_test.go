package main

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// maintainers.md "Removal, replicated history, and reinvitation": standing
// acceptance vs an ended self-role.
func TestLeaveAndReinvitationEndToEnd(t *testing.T) {
	t.Parallel()
	w := threeMaintainers(t)
	// Alice removes Carol; Carol has not acknowledged: a re-add confirms at once.
	w.ok(alice, alice, 4000, "repo", "edit", "--remove-maintainer", carol.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob, "2000"), role("m", carol, "3000", "4000"), projection(alice, bob))
	r := w.run(carol, alice, 4100, "repo")
	if !strings.Contains(r.Err, "no longer lists you as a maintainer") || !strings.Contains(r.Err, "roster repo follow-lead") {
		t.Fatalf("carol is not shown the removal:\n%s", r.Err)
	}
	m := w.ok(alice, alice, 4200, "repo", "edit", "--add-maintainer", carol.npub(), "--dry-run")
	sim := m["preview"].(map[string]any)["simulation"].(map[string]any)
	if got := toStrings(sim["newly_confirmed"]); len(got) != 1 || got[0] != carol.npub() {
		t.Fatalf("standing acceptance should confirm immediately: %v", got)
	}
	// ... but it is not an "expected confirmation": it is tied to the closed interval.
	if c, _ := sim["confirmation"].(map[string]any); c["kind"] != "standing-acceptance" || c["accepted_at"] != 3000.0 || c["closed_at"] != 4000.0 {
		t.Fatalf("confirmation %v", sim["confirmation"])
	}

	// Carol acknowledges the removal: ended self-m at Alice's end, redirect kept.
	w.ok(carol, alice, 4300, "repo", "follow-lead")
	w.wantLatest(carol, bare("clone"), bare("web"), bare("relays"), projection(alice), role("M", alice, "3000"), role("m", carol, "3000", "4000"), role("m", bob, "2000", "defer"))
	// Now a re-add is only an invitation, and Carol must accept again.
	m = w.ok(alice, alice, 5000, "repo", "edit", "--add-maintainer", carol.npub())
	if got := members(t, m); got["carol"] != "invited" {
		t.Fatalf("after re-invite: %v", got)
	}
	w.ok(carol, alice, 5100, "repo", "accept")
	w.wantLatest(carol, bare("clone"), bare("web"), bare("relays"), projection(alice, carol), role("M", alice, "3000"), role("m", carol, "3000", "4000", "5100"), role("m", bob, "2000", "defer"))

	// Bob leaves: ended self-role, redirect kept.
	w.ok(bob, alice, 6000, "repo", "leave")
	w.wantLatest(bob, bare("clone"), bare("web"), bare("relays"), projection(alice), role("M", alice, "2000"), role("m", bob, "2000", "6000"), role("m", carol, "3000", "defer"))
	// The lead cannot leave.
	w.refused(alice, alice, 6100, cmdutil.ExitRefused, "lead-cannot-leave", "repo", "leave")
}

// maintainers.md "Legacy migration", with ngit-shaped announcements.
func TestLegacyMigrationEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(
		alice.announce(t, w.id, 100, maintainersTag(alice, bob), nostr.Tag{"alt", "git repository: x"}),
		bob.announce(t, w.id, 110, maintainersTag(bob, alice)),
	)
	w.refused(alice, alice, 1000, cmdutil.ExitRefused, "governance-choice-required", "repo", "edit", "--add-maintainer", carol.npub())
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", carol.npub(), "--lead-maintainer", alice.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob), role("m", carol, "1000"), projection(alice, bob, carol), nostr.Tag{"alt", "git repository: x"})
	w.ok(bob, alice, 1100, "repo", "follow-lead")
	w.wantLatest(bob, role("m", bob), role("M", alice), projection(alice, bob))
}

// maintainers.md "The compatibility roster contradicts indexed roles".
func TestFixMaintainersEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100, role("M", alice), role("m", bob, "50"), role("m", carol, "60", "defer"),
		role("m", dave, "10", "20"), maintainersTag(alice, carol, dave), nostr.Tag{"x-unknown", "kept"}))
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "maintainers-projection-mismatch", "repo", "edit", "--add-maintainer", erin.npub())
	msg := m["error"].(map[string]any)["message"].(string)
	for _, s := range []string{"missing active roles: " + bob.npub(), "listed without an active role:", carol.npub(), dave.npub(), "roster repo edit --fix-maintainers"} {
		if !strings.Contains(msg, s) {
			t.Fatalf("message lacks %q:\n%s", s, msg)
		}
	}
	w.refused(alice, alice, 1000, cmdutil.ExitUsage, "usage", "repo", "edit", "--fix-maintainers", "--no-lead-maintainer")
	w.ok(alice, alice, 1000, "repo", "edit", "--fix-maintainers")
	w.wantLatest(alice, role("M", alice), role("m", bob, "50"), role("m", carol, "60", "defer"), role("m", dave, "10", "20"),
		projection(alice, bob), nostr.Tag{"x-unknown", "kept"})
	w.ok(alice, alice, 1100, "repo", "edit", "--add-maintainer", erin.npub())
}

// maintainers.md "A co-maintainer actively assigns a third party": the
// guarded repair across lead and co-maintainer.
func TestThirdPartyAssignmentRepairEndToEnd(t *testing.T) {
	t.Parallel()
	w := twoMaintainers(t)
	// Another client writes Bob's active m:Carol; Carol acknowledges Bob.
	w.seed(
		bob.announce(t, w.id, 2500, role("M", alice, "2000"), role("m", bob, "2000"), role("m", carol, "2500"), maintainersTag(alice, bob, carol)),
		carol.announce(t, w.id, 2600, role("M", bob, "2600"), role("m", carol, "2600"), maintainersTag(bob, carol)),
	)
	w.refused(bob, alice, 2700, cmdutil.ExitRefused, "third-party-assignment", "repo", "follow-lead")
	w.refused(bob, alice, 2700, cmdutil.ExitRefused, "third-party-assignment", "repo", "leave")
	w.refused(alice, alice, 2700, cmdutil.ExitRefused, "co-maintainer-third-party-assignment", "repo", "edit", "--remove-maintainer", bob.npub())
	w.ok(alice, alice, 2800, "repo", "edit", "--add-maintainer", carol.npub())
	w.ok(bob, alice, 2900, "repo", "follow-lead")
	w.wantLatest(bob, role("M", alice, "2000"), role("m", bob, "2000"), role("m", carol, "2800", "defer"), projection(alice, bob))
}

// maintainers.md "Legacy migration": leave from an ngit-shaped (role-less)
// announcement classifies its relationships first: untimed self-m ended now,
// the listing of the legacy-inferred lead kept as an untimed M redirect.
func TestLeaveFromLegacyAnnouncementEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(
		alice.announce(t, w.id, 100, maintainersTag(alice, bob, carol)),
		bob.announce(t, w.id, 110, maintainersTag(bob, alice)),
		carol.announce(t, w.id, 120, maintainersTag(carol, alice)),
	)
	m := w.ok(bob, alice, 1000, "repo", "leave")
	w.wantLatest(bob, role("m", bob, "0", "1000"), role("M", alice), projection(alice))
	// Alice's legacy listing still names Bob, but his signed end prevails.
	if got := members(t, m); got["bob"] == "confirmed" || got["alice"] != "confirmed" || got["carol"] != "confirmed" {
		t.Fatalf("after leave: %v", got)
	}
}
