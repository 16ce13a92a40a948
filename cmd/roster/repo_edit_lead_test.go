package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// threeMaintainers runs the real commands up to Alice leading, Bob and Carol
// confirmed and acknowledged, Bob and Carol following.
func threeMaintainers(t *testing.T) *mutWorld {
	w := newMutWorld(t, 2)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	w.ok(bob, alice, 2000, "repo", "accept")
	w.ok(alice, alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	w.ok(alice, alice, 2500, "repo", "edit", "--add-maintainer", carol.npub())
	w.ok(carol, alice, 3000, "repo", "accept")
	w.ok(alice, alice, 3100, "repo", "edit", "--acknowledge-maintainer-change", carol.npub())
	w.ok(bob, alice, 3200, "repo", "follow-lead")
	return w
}

// maintainers.md "Transferring the lead": Bob prepares, Alice points to him,
// Carol follows and her checkout switches to bob/my-repo.
func TestLeadTransferWithCoMaintainerFollowingEndToEnd(t *testing.T) {
	t.Parallel()
	w := threeMaintainers(t)
	// Alice cannot hand over before Bob prepared.
	w.refused(alice, alice, 3900, cmdutil.ExitRefused, "lead-not-prepared", "repo", "edit", "--lead-maintainer", bob.npub())

	w.ok(bob, bob, 4000, "repo", "edit", "--lead-maintainer", bob.npub())
	w.wantLatest(bob, bare("clone"), bare("web"), bare("relays"), projection(alice, bob, carol),
		role("M", alice, "2000", "4000"), role("m", bob, "2000", "4000"), role("m", carol, "3000"), role("M", bob, "4000"), role("m", alice))

	m := w.ok(alice, alice, 5000, "repo", "edit", "--lead-maintainer", bob.npub())
	w.wantLatest(alice, role("M", alice, "0", "5000"), role("m", bob, "2000", "defer"), role("m", carol, "3000", "defer"),
		role("m", alice, "5000"), role("M", bob, "5000"), projection(alice, bob))
	if m["lead_maintainer"] != bob.npub() || !strings.Contains(strings.Join(toStrings(m["guidance"]), "\n"), "roster repo follow-lead") {
		t.Fatalf("after handover: lead %v guidance %v", m["lead_maintainer"], m["guidance"])
	}

	// Carol, in a checkout selecting alice/my-repo, is told to follow.
	dir := t.TempDir()
	gitInit(t, dir)
	// origin is Alice's nostr:// URL, as a clone of alice/my-repo has it.
	aliceURL := gitstate.NostrURL(graph.NewCoordinate(alice.pk, w.id), []string{"wss://relay.example"})
	gitRun(t, dir, "remote", "add", "origin", aliceURL)
	w.dir = dir
	r := w.run(carol, alice, 5100, "repo")
	if !strings.Contains(r.Err, "roster repo follow-lead") {
		t.Fatalf("carol not told to follow:\n%s", r.Err)
	}
	m = w.ok(carol, alice, 5200, "repo", "follow-lead")
	// Alice's role copied as history: her effective start is unknown (0).
	w.wantLatest(carol, bare("clone"), bare("web"), bare("relays"), projection(bob, carol), role("M", alice, "3000", "5200"), role("m", carol, "3000"), role("M", bob, "5200"), role("m", alice, "0", "defer"))
	// Idempotent, now rooted at bob/my-repo: nothing left to change.
	before := w.storedCount()
	w.ok(carol, bob, 5300, "repo", "follow-lead")
	if w.storedCount() != before {
		t.Fatal("a second follow-lead published again")
	}
	if m["switched_to"] == nil {
		t.Fatalf("checkout not switched: %v", m)
	}
	// "switches the local nostr:// coordinate and nostr.repo": origin follows too.
	if got := toStrings(m["switched_remotes"]); len(got) != 1 || got[0] != "origin" {
		t.Fatalf("switched_remotes %v", m["switched_remotes"])
	}
	if got := gitRun(t, dir, "config", "--get", "remote.origin.url"); got != gitstate.NostrURL(graph.NewCoordinate(bob.pk, w.id), []string{"wss://relay.example"}) {
		t.Fatalf("origin not switched to bob: %s", got)
	}
	co, err := gitstate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := co.ResolveCoordinate("")
	if err != nil || sel.Coordinate.Pubkey != bob.pk {
		t.Fatalf("nostr.repo now selects %v (%v), want bob", sel.Coordinate, err)
	}
}

// "a deliberately leadless repository": the first invite opts out with
// --no-lead-maintainer, and every later add or remove repeats the choice.
func TestLeadlessRepositoryEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--no-lead-maintainer")
	w.wantLatest(alice, role("m", bob, "1000"), projection(bob))
	w.ok(bob, alice, 2000, "repo", "accept")
	w.wantLatest(bob, bare("clone"), bare("web"), bare("relays"), projection(alice, bob), role("m", alice, "2000"), role("m", bob, "2000"))
	m := w.refused(bob, alice, 2500, cmdutil.ExitRefused, "governance-choice-required", "repo", "edit", "--add-maintainer", carol.npub())
	if !strings.Contains(m["error"].(map[string]any)["message"].(string), "a lead maintainer must be assigned for this membership change") {
		t.Fatal(m)
	}
	w.ok(bob, alice, 2600, "repo", "edit", "--add-maintainer", carol.npub(), "--no-lead-maintainer")
	w.wantLatest(bob, bare("clone"), bare("web"), bare("relays"), projection(alice, bob, carol), role("m", alice, "2000"), role("m", bob, "2000"), role("m", carol, "2600"))
	w.refused(alice, alice, 2700, cmdutil.ExitUsage, "usage", "repo", "edit", "--add-maintainer", dave.npub(), "--no-lead-maintainer", "--lead-maintainer", alice.npub())
	w.refused(bob, alice, 2800, cmdutil.ExitRefused, "no-lead-to-follow", "repo", "follow-lead")
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
