package change_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// maintainers.md "Moderators", end to end against devrelay: the lead's
// --add-moderator publishes an active o, the recipient's accept --moderator
// an active self-o and nothing else, the lead's --remove-moderator ends the
// assignment and the recipient's leave ends the acknowledgement; every
// refusal stores nothing.
func TestModeratorWorkflowEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	alicesBase := []nostr.Tag{clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "2000"), clitest.Projection(clitest.Alice, clitest.Bob)}

	// Refusals before anything is assigned.
	w.Refused(clitest.Bob, clitest.Alice, 2150, cmdutil.ExitRefused, "only-lead-manages-roster", "repo", "edit", "--add-moderator", clitest.Dave.Npub())
	w.Refused(clitest.Dave, clitest.Alice, 2150, cmdutil.ExitRefused, "not-invited", "repo", "accept", "--moderator")
	w.Refused(clitest.Alice, clitest.Alice, 2150, cmdutil.ExitRefused, "already-maintainer", "repo", "edit", "--add-moderator", clitest.Bob.Npub())
	w.Refused(clitest.Alice, clitest.Alice, 2150, cmdutil.ExitRefused, "not-listed", "repo", "edit", "--remove-moderator", clitest.Dave.Npub())
	w.Refused(clitest.Alice, clitest.Alice, 2150, cmdutil.ExitUsage, "usage", "repo", "edit", "--add-moderator", clitest.Dave.Npub(), "--add-maintainer", clitest.Carol.Npub())

	// Invitation.
	m := w.Ok(clitest.Alice, clitest.Alice, 2200, "repo", "edit", "--add-moderator", clitest.Dave.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("o", clitest.Dave, "2200"), clitest.Projection(clitest.Alice, clitest.Bob))
	if sim := simulationOf(t, m); !slices.Equal(clitest.ToStrings(sim["newly_invited"]), []string{clitest.Dave.Npub()}) || len(clitest.ToStrings(sim["moderators_gained"])) != 0 {
		t.Fatalf("an assignment invites dave and confirms nobody: %v", sim)
	}
	if m["action"] != "add-moderator" || !strings.Contains(strings.Join(clitest.ToStrings(m["guidance"]), "\n"), "roster repo accept --moderator") {
		t.Fatalf("action and guidance: %v %v", m["action"], m["guidance"])
	}
	w.Refused(clitest.Alice, clitest.Alice, 2250, cmdutil.ExitRefused, "already-invited", "repo", "edit", "--add-moderator", clitest.Dave.Npub())

	// Acceptance: only an active self-o, from the repository's shared fields
	// (a first announcement: ngit's tag order, clone, web and relays empty).
	m = w.Ok(clitest.Dave, clitest.Alice, 2300, "repo", "accept", "--moderator")
	w.WantLatest(clitest.Dave, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.MaintainersTag(), clitest.Role("o", clitest.Dave, "2300"))
	if got := moderatorStatuses(t, m); got[clitest.Dave.Npub()] != "confirmed" {
		t.Fatalf("dave after accepting: %v", got)
	}
	if got := clitest.Members(t, m); got["dave"] != "" {
		t.Fatalf("a moderator is no maintainer: %v", got)
	}
	w.Refused(clitest.Dave, clitest.Alice, 2350, cmdutil.ExitRefused, "already-moderator", "repo", "accept", "--moderator")
	// Bob, a co-maintainer, is asked to copy the moderator interval, said as such.
	if r := w.Run(clitest.Bob, clitest.Alice, 2350, "repo"); r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, clitest.Dave.Npub()+" started their moderator role at") {
		t.Fatalf("bob's pending copy:\n%s%s", r.Out, r.Err)
	}

	// Removal by the lead: her o ends now; dave's acknowledgement stays his.
	m = w.Ok(clitest.Alice, clitest.Alice, 2400, "repo", "edit", "--remove-moderator", clitest.Dave.Npub())
	w.WantLatest(clitest.Alice, append(alicesBase[:2:2], clitest.Role("o", clitest.Dave, "2200", "2400"), clitest.Projection(clitest.Alice, clitest.Bob))...)
	if sim := simulationOf(t, m); !slices.Equal(clitest.ToStrings(sim["moderators_lost"]), []string{clitest.Dave.Npub()}) {
		t.Fatalf("moderators lost: %v", sim)
	}
	w.Refused(clitest.Alice, clitest.Alice, 2450, cmdutil.ExitRefused, "not-listed", "repo", "edit", "--remove-moderator", clitest.Dave.Npub())

	// leave ends the self-o.
	w.Ok(clitest.Dave, clitest.Alice, 2500, "repo", "leave")
	w.WantLatest(clitest.Dave, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.MaintainersTag(), clitest.Role("o", clitest.Dave, "2300", "2500"))
	w.Refused(clitest.Dave, clitest.Alice, 2550, cmdutil.ExitRefused, "no-active-role", "repo", "leave")
}

// "Health and gates agree": Bob, a confirmed co-maintainer, carries an
// active third-party o assigning Dave. Alice's edits are refused with
// co-maintainer-third-party-assignment, and repo health reports the same
// shape (not "healthy") with the cover the gate names, --add-moderator
// (never --add-maintainer, which would invite Dave as a maintainer). Alice
// covers Dave, Bob follows the lead, and Alice's edits work again.
func TestThirdPartyModeratorAssignmentRunsToACleanEndEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	w.Seed(
		clitest.Bob.Announce(t, w.Id, 2500, clitest.Role("M", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("o", clitest.Dave, "2500"), clitest.Projection(clitest.Alice, clitest.Bob)),
		clitest.Dave.Announce(t, w.Id, 2550, clitest.Role("o", clitest.Dave, "2550"), clitest.MaintainersTag()),
	)
	plainCover := "roster repo edit --add-moderator " + clitest.Dave.Npub()
	cover := plainCover + w.Selectors(clitest.Alice)

	e := w.Refused(clitest.Alice, clitest.Alice, 2600, cmdutil.ExitRefused, "co-maintainer-third-party-assignment", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	if cmds := clitest.ToStrings(e["error"].(map[string]any)["commands"]); len(cmds) == 0 || cmds[0] != cover {
		t.Fatalf("the gate's first command is the moderator cover:\n%v", cmds)
	}
	w.Refused(clitest.Alice, clitest.Alice, 2600, cmdutil.ExitRefused, "co-maintainer-third-party-assignment", "repo", "edit", "--add-maintainer", clitest.Dave.Npub())
	w.Refused(clitest.Bob, clitest.Alice, 2600, cmdutil.ExitRefused, "third-party-assignment", "repo", "follow-lead")

	// Health reports it to the lead as an error with the same cover.
	h := w.Run(clitest.Alice, clitest.Alice, 2600, "repo", "health", "--json")
	if h.Code != cmdutil.ExitUnhealthy {
		t.Fatalf("repo health: exit %d, want %d\n%s%s", h.Code, cmdutil.ExitUnhealthy, h.Out, h.Err)
	}
	f := findingOf(t, h.Out, "third-party-assignment", clitest.Alice)
	if f == nil || f["severity"] != "error" || f["command"] != plainCover {
		t.Fatalf("the lead's finding: %v\n%s", f, h.Out)
	}
	if f := findingOf(t, h.Out, "third-party-assignment", clitest.Bob); f == nil || f["severity"] != "warning" {
		t.Fatalf("bob's finding, seen by alice: %v\n%s", f, h.Out)
	}
	human := w.Run(clitest.Alice, clitest.Alice, 2600, "repo", "health")
	if human.Code != cmdutil.ExitUnhealthy || !strings.Contains(human.Out, "unhealthy: 1 error(s)") ||
		!strings.Contains(human.Out, "--add-moderator "+clitest.Dave.Npub()) || strings.Contains(human.Out, "--add-maintainer "+clitest.Dave.Npub()) {
		t.Fatalf("human health:\n%s%s", human.Out, human.Err)
	}
	if hb := w.Run(clitest.Bob, clitest.Alice, 2600, "repo", "health", "--json"); hb.Code != cmdutil.ExitUnhealthy || findingOf(t, hb.Out, "third-party-assignment", clitest.Bob)["severity"] != "error" {
		t.Fatalf("bob's health:\n%s", hb.Out)
	}

	// Alice runs the suggested cover; Dave already acknowledged, so he is confirmed.
	m := w.Ok(clitest.Alice, clitest.Alice, 2700, "repo", "edit", "--add-moderator", clitest.Dave.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("o", clitest.Dave, "2700"), clitest.Projection(clitest.Alice, clitest.Bob))
	if sim := simulationOf(t, m); !slices.Equal(clitest.ToStrings(sim["moderators_gained"]), []string{clitest.Dave.Npub()}) {
		t.Fatalf("moderators gained: %v", sim)
	}
	// Still gated until Bob converges.
	w.Refused(clitest.Alice, clitest.Alice, 2750, cmdutil.ExitRefused, "co-maintainer-third-party-assignment", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())

	w.Ok(clitest.Bob, clitest.Alice, 2800, "repo", "follow-lead")
	w.WantLatest(clitest.Bob, clitest.Role("M", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("o", clitest.Dave, "2700", "defer"), clitest.Projection(clitest.Alice, clitest.Bob))

	if h := w.Run(clitest.Alice, clitest.Alice, 2850, "repo", "health", "--json"); h.Code != cmdutil.ExitOK || findingOf(t, h.Out, "third-party-assignment", clitest.Alice) != nil {
		t.Fatalf("after the repair: exit %d\n%s", h.Code, h.Out)
	}
	w.Ok(clitest.Alice, clitest.Alice, 2900, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("o", clitest.Dave, "2700"), clitest.Role("m", clitest.Carol, "2900"), clitest.Projection(clitest.Alice, clitest.Bob, clitest.Carol))
}

// simulationOf is a mutation result's preview.simulation.
func simulationOf(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	p, _ := m["preview"].(map[string]any)
	s, _ := p["simulation"].(map[string]any)
	if s == nil {
		t.Fatalf("no preview.simulation: %v", m)
	}
	return s
}

// moderatorStatuses maps npub -> status from a result's moderators.
func moderatorStatuses(t *testing.T, m map[string]any) map[string]string {
	t.Helper()
	return clitest.MemberStatuses(t, m["moderators"])
}

// findingOf is the roster.health finding with code whose author is p (nil when none).
func findingOf(t *testing.T, out, code string, p clitest.Person) map[string]any {
	t.Helper()
	var h struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &h); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, f := range h.Findings {
		if f["code"] == code && f["author"] == p.Npub() {
			return f
		}
	}
	return nil
}
