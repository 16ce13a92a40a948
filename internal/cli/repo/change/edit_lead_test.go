package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// threeMaintainers runs the real commands up to Alice leading, Bob and Carol
// confirmed and acknowledged, Bob and Carol following.
func threeMaintainers(t *testing.T) *clitest.MutWorld {
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	w.Ok(clitest.Alice, clitest.Alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
	w.Ok(clitest.Alice, clitest.Alice, 2500, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.Ok(clitest.Carol, clitest.Alice, 3000, "repo", "accept")
	w.Ok(clitest.Alice, clitest.Alice, 3100, "repo", "edit", "--acknowledge-maintainer-change", clitest.Carol.Npub())
	w.Ok(clitest.Bob, clitest.Alice, 3200, "repo", "follow-lead")
	return w
}

// maintainers.md "Transferring the lead": Bob prepares, Alice points to him,
// Carol follows and her checkout switches to bob/my-repo.
func TestLeadTransferWithCoMaintainerFollowingEndToEnd(t *testing.T) {
	t.Parallel()
	w := threeMaintainers(t)
	// Alice cannot hand over before Bob prepared.
	w.Refused(clitest.Alice, clitest.Alice, 3900, cmdutil.ExitRefused, "lead-not-prepared", "repo", "edit", "--lead-maintainer", clitest.Bob.Npub())

	w.Ok(clitest.Bob, clitest.Bob, 4000, "repo", "edit", "--lead-maintainer", clitest.Bob.Npub())
	w.WantLatest(clitest.Bob, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.Projection(clitest.Alice, clitest.Bob, clitest.Carol),
		clitest.Role("M", clitest.Alice, "2000", "4000"), clitest.Role("m", clitest.Bob, "2000", "4000"), clitest.Role("m", clitest.Carol, "3000"), clitest.Role("M", clitest.Bob, "4000"), clitest.Role("m", clitest.Alice))

	m := w.Ok(clitest.Alice, clitest.Alice, 5000, "repo", "edit", "--lead-maintainer", clitest.Bob.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice, "0", "5000"), clitest.Role("m", clitest.Bob, "2000", "defer"), clitest.Role("m", clitest.Carol, "3000", "defer"),
		clitest.Role("m", clitest.Alice, "5000"), clitest.Role("M", clitest.Bob, "5000"), clitest.Projection(clitest.Alice, clitest.Bob))
	if m["lead_maintainer"] != clitest.Bob.Npub() || !strings.Contains(strings.Join(clitest.ToStrings(m["guidance"]), "\n"), "roster repo follow-lead") {
		t.Fatalf("after handover: lead %v guidance %v", m["lead_maintainer"], m["guidance"])
	}

	// Carol, in a checkout selecting alice/my-repo, is told to follow.
	dir := t.TempDir()
	clitest.GitInit(t, dir)
	// origin is Alice's nostr:// URL, as a clone of alice/my-repo has it.
	aliceURL := gitstate.NostrURL(graph.NewCoordinate(clitest.Alice.Pk, w.Id), []string{"wss://relay.example"})
	clitest.GitRun(t, dir, "remote", "add", "origin", aliceURL)
	w.Dir = dir
	r := w.Run(clitest.Carol, clitest.Alice, 5100, "repo")
	if !strings.Contains(r.Err, "roster repo follow-lead") {
		t.Fatalf("carol not told to follow:\n%s", r.Err)
	}
	m = w.Ok(clitest.Carol, clitest.Alice, 5200, "repo", "follow-lead")
	// Alice's role copied as history: her effective start is unknown (0).
	w.WantLatest(clitest.Carol, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.Projection(clitest.Bob, clitest.Carol), clitest.Role("M", clitest.Alice, "3000", "5200"), clitest.Role("m", clitest.Carol, "3000"), clitest.Role("M", clitest.Bob, "5200"), clitest.Role("m", clitest.Alice, "0", "defer"))
	// Idempotent, now rooted at bob/my-repo: nothing left to change.
	before := w.StoredCount()
	w.Ok(clitest.Carol, clitest.Bob, 5300, "repo", "follow-lead")
	if w.StoredCount() != before {
		t.Fatal("a second follow-lead published again")
	}
	if m["switched_to"] == nil {
		t.Fatalf("checkout not switched: %v", m)
	}
	// "switches the local nostr:// coordinate and nostr.repo": origin follows too.
	if got := clitest.ToStrings(m["switched_remotes"]); len(got) != 1 || got[0] != "origin" {
		t.Fatalf("switched_remotes %v", m["switched_remotes"])
	}
	if got := clitest.GitRun(t, dir, "config", "--get", "remote.origin.url"); got != gitstate.NostrURL(graph.NewCoordinate(clitest.Bob.Pk, w.Id), []string{"wss://relay.example"}) {
		t.Fatalf("origin not switched to bob: %s", got)
	}
	co, err := gitstate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := co.ResolveCoordinate("")
	if err != nil || sel.Coordinate.Pubkey != clitest.Bob.Pk {
		t.Fatalf("nostr.repo now selects %v (%v), want bob", sel.Coordinate, err)
	}
}

// "a deliberately leadless repository": the first invite opts out with
// --no-lead-maintainer, and every later add or remove repeats the choice.
func TestLeadlessRepositoryEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer")
	w.WantLatest(clitest.Alice, clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Bob))
	w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	w.WantLatest(clitest.Bob, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.Projection(clitest.Alice, clitest.Bob), clitest.Role("m", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000"))
	m := w.Refused(clitest.Bob, clitest.Alice, 2500, cmdutil.ExitRefused, "governance-choice-required", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	if !strings.Contains(m["error"].(map[string]any)["message"].(string), "a lead maintainer must be assigned for this membership change") {
		t.Fatal(m)
	}
	w.Ok(clitest.Bob, clitest.Alice, 2600, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--no-lead-maintainer")
	w.WantLatest(clitest.Bob, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.Projection(clitest.Alice, clitest.Bob, clitest.Carol), clitest.Role("m", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("m", clitest.Carol, "2600"))
	w.Refused(clitest.Alice, clitest.Alice, 2700, cmdutil.ExitUsage, "usage", "repo", "edit", "--add-maintainer", clitest.Dave.Npub(), "--no-lead-maintainer", "--lead-maintainer", clitest.Alice.Npub())
	w.Refused(clitest.Bob, clitest.Alice, 2800, cmdutil.ExitRefused, "no-lead-to-follow", "repo", "follow-lead")
}
