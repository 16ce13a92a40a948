package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

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
	w := twoMaintainers(t)
	alicesBase := []nostr.Tag{role("M", alice), role("m", bob, "2000"), projection(alice, bob)}

	// Refusals before anything is assigned.
	w.refused(bob, alice, 2150, cmdutil.ExitRefused, "only-lead-manages-roster", "repo", "edit", "--add-moderator", dave.npub())
	w.refused(dave, alice, 2150, cmdutil.ExitRefused, "not-invited", "repo", "accept", "--moderator")
	w.refused(alice, alice, 2150, cmdutil.ExitRefused, "already-maintainer", "repo", "edit", "--add-moderator", bob.npub())
	w.refused(alice, alice, 2150, cmdutil.ExitRefused, "not-listed", "repo", "edit", "--remove-moderator", dave.npub())
	w.refused(alice, alice, 2150, cmdutil.ExitUsage, "usage", "repo", "edit", "--add-moderator", dave.npub(), "--add-maintainer", carol.npub())

	// Invitation.
	m := w.ok(alice, alice, 2200, "repo", "edit", "--add-moderator", dave.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob, "2000"), role("o", dave, "2200"), projection(alice, bob))
	if sim := simulationOf(t, m); !slices.Equal(toStrings(sim["newly_invited"]), []string{dave.npub()}) || len(toStrings(sim["moderators_gained"])) != 0 {
		t.Fatalf("an assignment invites dave and confirms nobody: %v", sim)
	}
	if m["action"] != "add-moderator" || !strings.Contains(strings.Join(toStrings(m["guidance"]), "\n"), "roster repo accept --moderator") {
		t.Fatalf("action and guidance: %v %v", m["action"], m["guidance"])
	}
	w.refused(alice, alice, 2250, cmdutil.ExitRefused, "already-invited", "repo", "edit", "--add-moderator", dave.npub())

	// Acceptance: only an active self-o, from the repository's shared fields
	// (a first announcement: ngit's tag order, clone, web and relays empty).
	m = w.ok(dave, alice, 2300, "repo", "accept", "--moderator")
	w.wantLatest(dave, bare("clone"), bare("web"), bare("relays"), maintainersTag(), role("o", dave, "2300"))
	if got := moderatorStatuses(t, m); got[dave.npub()] != "confirmed" {
		t.Fatalf("dave after accepting: %v", got)
	}
	if got := members(t, m); got["dave"] != "" {
		t.Fatalf("a moderator is no maintainer: %v", got)
	}
	w.refused(dave, alice, 2350, cmdutil.ExitRefused, "already-moderator", "repo", "accept", "--moderator")
	// Bob, a co-maintainer, is asked to copy the moderator interval, said as such.
	if r := w.run(bob, alice, 2350, "repo"); r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, dave.npub()+" started their moderator role at") {
		t.Fatalf("bob's pending copy:\n%s%s", r.Out, r.Err)
	}

	// Removal by the lead: her o ends now; dave's acknowledgement stays his.
	m = w.ok(alice, alice, 2400, "repo", "edit", "--remove-moderator", dave.npub())
	w.wantLatest(alice, append(alicesBase[:2:2], role("o", dave, "2200", "2400"), projection(alice, bob))...)
	if sim := simulationOf(t, m); !slices.Equal(toStrings(sim["moderators_lost"]), []string{dave.npub()}) {
		t.Fatalf("moderators lost: %v", sim)
	}
	w.refused(alice, alice, 2450, cmdutil.ExitRefused, "not-listed", "repo", "edit", "--remove-moderator", dave.npub())

	// leave ends the self-o.
	w.ok(dave, alice, 2500, "repo", "leave")
	w.wantLatest(dave, bare("clone"), bare("web"), bare("relays"), maintainersTag(), role("o", dave, "2300", "2500"))
	w.refused(dave, alice, 2550, cmdutil.ExitRefused, "no-active-role", "repo", "leave")
}

// "Health and gates agree": Bob, a confirmed co-maintainer, carries an
// active third-party o assigning Dave. Alice's edits are refused with
// co-maintainer-third-party-assignment, and repo health reports the same
// shape (not "healthy") with the cover the gate names, --add-moderator
// (never --add-maintainer, which would invite Dave as a maintainer). Alice
// covers Dave, Bob follows the lead, and Alice's edits work again.
func TestThirdPartyModeratorAssignmentRunsToACleanEndEndToEnd(t *testing.T) {
	t.Parallel()
	w := twoMaintainers(t)
	w.seed(
		bob.announce(t, w.id, 2500, role("M", alice, "2000"), role("m", bob, "2000"), role("o", dave, "2500"), projection(alice, bob)),
		dave.announce(t, w.id, 2550, role("o", dave, "2550"), maintainersTag()),
	)
	plainCover := "roster repo edit --add-moderator " + dave.npub()
	cover := plainCover + w.Selectors(alice)

	e := w.refused(alice, alice, 2600, cmdutil.ExitRefused, "co-maintainer-third-party-assignment", "repo", "edit", "--add-maintainer", carol.npub())
	if cmds := toStrings(e["error"].(map[string]any)["commands"]); len(cmds) == 0 || cmds[0] != cover {
		t.Fatalf("the gate's first command is the moderator cover:\n%v", cmds)
	}
	w.refused(alice, alice, 2600, cmdutil.ExitRefused, "co-maintainer-third-party-assignment", "repo", "edit", "--add-maintainer", dave.npub())
	w.refused(bob, alice, 2600, cmdutil.ExitRefused, "third-party-assignment", "repo", "follow-lead")

	// Health reports it to the lead as an error with the same cover.
	h := w.run(alice, alice, 2600, "repo", "health", "--json")
	if h.Code != cmdutil.ExitUnhealthy {
		t.Fatalf("repo health: exit %d, want %d\n%s%s", h.Code, cmdutil.ExitUnhealthy, h.Out, h.Err)
	}
	f := findingOf(t, h.Out, "third-party-assignment", alice)
	if f == nil || f["severity"] != "error" || f["command"] != plainCover {
		t.Fatalf("the lead's finding: %v\n%s", f, h.Out)
	}
	if f := findingOf(t, h.Out, "third-party-assignment", bob); f == nil || f["severity"] != "warning" {
		t.Fatalf("bob's finding, seen by alice: %v\n%s", f, h.Out)
	}
	human := w.run(alice, alice, 2600, "repo", "health")
	if human.Code != cmdutil.ExitUnhealthy || !strings.Contains(human.Out, "unhealthy: 1 error(s)") ||
		!strings.Contains(human.Out, "--add-moderator "+dave.npub()) || strings.Contains(human.Out, "--add-maintainer "+dave.npub()) {
		t.Fatalf("human health:\n%s%s", human.Out, human.Err)
	}
	if hb := w.run(bob, alice, 2600, "repo", "health", "--json"); hb.Code != cmdutil.ExitUnhealthy || findingOf(t, hb.Out, "third-party-assignment", bob)["severity"] != "error" {
		t.Fatalf("bob's health:\n%s", hb.Out)
	}

	// Alice runs the suggested cover; Dave already acknowledged, so he is confirmed.
	m := w.ok(alice, alice, 2700, "repo", "edit", "--add-moderator", dave.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob, "2000"), role("o", dave, "2700"), projection(alice, bob))
	if sim := simulationOf(t, m); !slices.Equal(toStrings(sim["moderators_gained"]), []string{dave.npub()}) {
		t.Fatalf("moderators gained: %v", sim)
	}
	// Still gated until Bob converges.
	w.refused(alice, alice, 2750, cmdutil.ExitRefused, "co-maintainer-third-party-assignment", "repo", "edit", "--add-maintainer", carol.npub())

	w.ok(bob, alice, 2800, "repo", "follow-lead")
	w.wantLatest(bob, role("M", alice, "2000"), role("m", bob, "2000"), role("o", dave, "2700", "defer"), projection(alice, bob))

	if h := w.run(alice, alice, 2850, "repo", "health", "--json"); h.Code != cmdutil.ExitOK || findingOf(t, h.Out, "third-party-assignment", alice) != nil {
		t.Fatalf("after the repair: exit %d\n%s", h.Code, h.Out)
	}
	w.ok(alice, alice, 2900, "repo", "edit", "--add-maintainer", carol.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob, "2000"), role("o", dave, "2700"), role("m", carol, "2900"), projection(alice, bob, carol))
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
	return memberStatuses(t, m["moderators"])
}

// findingOf is the roster.health finding with code whose author is p (nil when none).
func findingOf(t *testing.T, out, code string, p person) map[string]any {
	t.Helper()
	var h struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &h); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, f := range h.Findings {
		if f["code"] == code && f["author"] == p.npub() {
			return f
		}
	}
	return nil
}
