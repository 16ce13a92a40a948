package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// maintainers.md "Normal two-person workflow", all six steps, end to end:
// each step is a separate invocation with that person's key.
func TestTwoPersonWorkflowEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	// 1. Alice creates the repository: no role or maintainers tag.
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))

	// 2. Alice invites Bob and becomes lead automatically (untimed self-M).
	m := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Alice, clitest.Bob))
	if got := clitest.Members(t, m); got["bob"] != "invited" || got["alice"] != "confirmed" {
		t.Fatalf("after invite: %v", got)
	}
	if m["verified"] != true || len(m["published"].([]any)) != 1 {
		t.Fatalf("not verified: %v", m)
	}

	// 3. Bob accepts: active M to Alice and active self-m, nothing else.
	m = w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	w.WantLatest(clitest.Bob, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.Projection(clitest.Alice, clitest.Bob), clitest.Role("M", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000"))
	if got := clitest.Members(t, m); got["bob"] != "confirmed" {
		t.Fatalf("after accept: %v", got)
	}

	// 4. Alice's next command shows the acknowledgement guidance (roster
	// repo in its pending rows, once); no prompt.
	r := w.Run(clitest.Alice, clitest.Alice, 2500, "repo")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "roster repo edit --acknowledge-maintainer-change "+clitest.Bob.Npub()) {
		t.Fatalf("lead guidance missing (exit %d):\n%s%s", r.Code, r.Out, r.Err)
	}
	w.Ok(clitest.Alice, clitest.Alice, 3000, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "2000"), clitest.Projection(clitest.Alice, clitest.Bob))

	// 5. The guidance stops once recorded.
	r = w.Run(clitest.Alice, clitest.Alice, 3100, "repo")
	if strings.Contains(r.Err, "--acknowledge-maintainer-change") {
		t.Fatalf("guidance repeats after acknowledgement:\n%s", r.Err)
	}

	// 6. A co-maintainer asks the lead to change the roster.
	e := w.Refused(clitest.Bob, clitest.Alice, 3200, cmdutil.ExitRefused, "only-lead-manages-roster", "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	if !strings.Contains(e["error"].(map[string]any)["message"].(string), "ask "+clitest.Alice.Npub()+" to run:") {
		t.Fatalf("refusal: %v", e)
	}
}

// A three-person repository: Carol joins, Bob is shown follow-lead and his
// follow-lead copies Carol's interval as historical-only.
func TestThreePersonRepositoryEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	w.Ok(clitest.Alice, clitest.Alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
	w.Ok(clitest.Alice, clitest.Alice, 2500, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.Ok(clitest.Carol, clitest.Alice, 3000, "repo", "accept")
	w.Ok(clitest.Alice, clitest.Alice, 3100, "repo", "edit", "--acknowledge-maintainer-change", clitest.Carol.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("m", clitest.Carol, "3000"), clitest.Projection(clitest.Alice, clitest.Bob, clitest.Carol))

	r := w.Run(clitest.Bob, clitest.Alice, 3200, "repo")
	if !strings.Contains(r.Err, "roster repo follow-lead") {
		t.Fatalf("bob is not shown follow-lead:\n%s", r.Err)
	}
	w.Ok(clitest.Bob, clitest.Alice, 3300, "repo", "follow-lead")
	w.WantLatest(clitest.Bob, clitest.Bare("clone"), clitest.Bare("web"), clitest.Bare("relays"), clitest.Projection(clitest.Alice, clitest.Bob), clitest.Role("M", clitest.Alice, "2000"), clitest.Role("m", clitest.Bob, "2000"), clitest.Role("m", clitest.Carol, "3000", "defer"))
	// Idempotent: nothing more to publish.
	before := w.StoredCount()
	w.Ok(clitest.Bob, clitest.Alice, 3400, "repo", "follow-lead")
	if w.StoredCount() != before {
		t.Fatal("a second follow-lead published again")
	}
	// --dry-run previews and publishes nothing.
	before = w.StoredCount()
	m := w.Ok(clitest.Alice, clitest.Alice, 3500, "repo", "edit", "--add-maintainer", clitest.Dave.Npub(), "--dry-run")
	if m["dry_run"] != true || w.StoredCount() != before || len(m["published"].([]any)) != 0 {
		t.Fatalf("dry run published: %v", m)
	}
	sim := m["preview"].(map[string]any)["simulation"].(map[string]any)
	if inv := sim["newly_invited"].([]any); len(inv) != 1 || inv[0] != clitest.Dave.Npub() {
		t.Fatalf("preview newly_invited %v", inv)
	}
}
