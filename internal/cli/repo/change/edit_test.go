package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// maintainers.md "Removal, replicated history, and reinvitation": standing
// acceptance vs an ended self-role.
func TestLeaveAndReinvitationEndToEnd(t *testing.T) {
	t.Parallel()
	w := threeMaintainers(t)
	// Alice removes Carol; Carol has not acknowledged: a re-add confirms at once.
	w.Ok(clitest.Alice, clitest.Alice, 4000, "repo", "edit", "--remove-maintainer", clitest.Carol.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("m", clitest.Carol, "3000", "4000"), clitest.Projection(clitest.Alice, clitest.Bob))
	r := w.Run(clitest.Carol, clitest.Alice, 4100, "repo")
	if !strings.Contains(r.Err, "no longer lists you as a maintainer") || !strings.Contains(r.Err, "roster repo follow-lead") {
		t.Fatalf("carol is not shown the removal:\n%s", r.Err)
	}
	m := w.Ok(clitest.Alice, clitest.Alice, 4200, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--dry-run")
	sim := m["preview"].(map[string]any)["simulation"].(map[string]any)
	if got := clitest.ToStrings(sim["newly_confirmed"]); len(got) != 1 || got[0] != clitest.Carol.Npub() {
		t.Fatalf("standing acceptance should confirm immediately: %v", got)
	}
	// ... but it is not an "expected confirmation": it is tied to the closed interval.
	if c, _ := sim["confirmation"].(map[string]any); c["kind"] != "standing-acceptance" || c["accepted_at"] != 3000.0 || c["closed_at"] != 4000.0 {
		t.Fatalf("confirmation %v", sim["confirmation"])
	}

	// Carol acknowledges the removal: ended self-m at Alice's end, redirect kept.
	w.Ok(clitest.Carol, clitest.Alice, 4300, "repo", "follow-lead")
	w.WantLatest(clitest.Carol, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.Projection(clitest.Alice), clitest.Role("M", clitest.Alice, "3000"), clitest.Role("m", clitest.Carol, "3000", "4000"), clitest.Role("m", clitest.Bob, "2000", "defer"))
	// Now a re-add is only an invitation, and Carol must accept again.
	m = w.Ok(clitest.Alice, clitest.Alice, 5000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	if got := clitest.Members(t, m); got["carol"] != "invited" {
		t.Fatalf("after re-invite: %v", got)
	}
	w.Ok(clitest.Carol, clitest.Alice, 5100, "repo", "accept")
	w.WantLatest(clitest.Carol, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.Projection(clitest.Alice, clitest.Carol), clitest.Role("M", clitest.Alice, "3000"), clitest.Role("m", clitest.Carol, "3000", "4000", "5100"), clitest.Role("m", clitest.Bob, "2000", "defer"))

	// Bob leaves: ended self-role, redirect kept.
	w.Ok(clitest.Bob, clitest.Alice, 6000, "repo", "leave")
	w.WantLatest(clitest.Bob, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.Projection(clitest.Alice), clitest.Role("M", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000", "6000"), clitest.Role("m", clitest.Carol, "3000", "defer"))
	// The lead cannot leave.
	w.Refused(clitest.Alice, clitest.Alice, 6100, cmdutil.ExitRefused, "lead-cannot-leave", "repo", "leave")
}

// maintainers.md "Legacy migration", with ngit-shaped announcements.
func TestLegacyMigrationEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(
		clitest.Alice.Announce(t, w.Id, 100, clitest.MaintainersTag(clitest.Alice, clitest.Bob), nostr.Tag{"alt", "git repository: x"}),
		clitest.Bob.Announce(t, w.Id, 110, clitest.MaintainersTag(clitest.Bob, clitest.Alice)),
	)
	w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "governance-choice-required", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--lead-maintainer", clitest.Alice.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob), clitest.Role("m", clitest.Carol, "1000"), clitest.Projection(clitest.Alice, clitest.Bob, clitest.Carol), nostr.Tag{"alt", "git repository: x"})
	w.Ok(clitest.Bob, clitest.Alice, 1100, "repo", "follow-lead")
	w.WantLatest(clitest.Bob, clitest.Role("m", clitest.Bob), clitest.Role("M", clitest.Alice), clitest.Projection(clitest.Alice, clitest.Bob))
}

// maintainers.md "The compatibility roster contradicts indexed roles".
func TestFixMaintainersEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "50"), clitest.Role("m", clitest.Carol, "60", "defer"),
		clitest.Role("m", clitest.Dave, "10", "20"), clitest.MaintainersTag(clitest.Alice, clitest.Carol, clitest.Dave), nostr.Tag{"x-unknown", "kept"}))
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "maintainers-projection-mismatch", "repo", "edit", "--add-maintainer", clitest.Erin.Npub())
	msg := m["error"].(map[string]any)["message"].(string)
	for _, s := range []string{"missing active roles: " + clitest.Bob.Npub(), "listed without an active role:", clitest.Carol.Npub(), clitest.Dave.Npub(), "roster repo edit --fix-maintainers"} {
		if !strings.Contains(msg, s) {
			t.Fatalf("message lacks %q:\n%s", s, msg)
		}
	}
	w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitUsage, "usage", "repo", "edit", "--fix-maintainers", "--no-lead-maintainer")
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--fix-maintainers")
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "50"), clitest.Role("m", clitest.Carol, "60", "defer"), clitest.Role("m", clitest.Dave, "10", "20"),
		clitest.Projection(clitest.Alice, clitest.Bob), nostr.Tag{"x-unknown", "kept"})
	w.Ok(clitest.Alice, clitest.Alice, 1100, "repo", "edit", "--add-maintainer", clitest.Erin.Npub())
}

// maintainers.md "A co-maintainer actively assigns a third party": the
// guarded repair across lead and co-maintainer.
func TestThirdPartyAssignmentRepairEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	// Another client writes Bob's active m:Carol; Carol acknowledges Bob.
	w.Seed(
		clitest.Bob.Announce(t, w.Id, 2500, clitest.Role("M", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("m", clitest.Carol, "2500"), clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Carol)),
		clitest.Carol.Announce(t, w.Id, 2600, clitest.Role("M", clitest.Bob, "2600"), clitest.Role("m", clitest.Carol, "2600"), clitest.MaintainersTag(clitest.Bob, clitest.Carol)),
	)
	w.Refused(clitest.Bob, clitest.Alice, 2700, cmdutil.ExitRefused, "third-party-assignment", "repo", "follow-lead")
	w.Refused(clitest.Bob, clitest.Alice, 2700, cmdutil.ExitRefused, "third-party-assignment", "repo", "leave")
	w.Refused(clitest.Alice, clitest.Alice, 2700, cmdutil.ExitRefused, "co-maintainer-third-party-assignment", "repo", "edit", "--remove-maintainer", clitest.Bob.Npub())
	w.Ok(clitest.Alice, clitest.Alice, 2800, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.Ok(clitest.Bob, clitest.Alice, 2900, "repo", "follow-lead")
	w.WantLatest(clitest.Bob, clitest.Role("M", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("m", clitest.Carol, "2800", "defer"), clitest.Projection(clitest.Alice, clitest.Bob))
}

// maintainers.md "Legacy migration": leave from an ngit-shaped (role-less)
// announcement classifies its relationships first: untimed self-m ended now,
// the listing of the legacy-inferred lead kept as an untimed M redirect.
func TestLeaveFromLegacyAnnouncementEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(
		clitest.Alice.Announce(t, w.Id, 100, clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Carol)),
		clitest.Bob.Announce(t, w.Id, 110, clitest.MaintainersTag(clitest.Bob, clitest.Alice)),
		clitest.Carol.Announce(t, w.Id, 120, clitest.MaintainersTag(clitest.Carol, clitest.Alice)),
	)
	m := w.Ok(clitest.Bob, clitest.Alice, 1000, "repo", "leave")
	w.WantLatest(clitest.Bob, clitest.Role("m", clitest.Bob, "0", "1000"), clitest.Role("M", clitest.Alice), clitest.Projection(clitest.Alice))
	// Alice's legacy listing still names Bob, but his signed end prevails.
	if got := clitest.Members(t, m); got["bob"] == "confirmed" || got["alice"] != "confirmed" || got["carol"] != "confirmed" {
		t.Fatalf("after leave: %v", got)
	}
}
