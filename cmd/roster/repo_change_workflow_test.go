package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// maintainers.md "Normal two-person workflow", all six steps, end to end:
// each step is a separate invocation with that person's key.
func TestTwoPersonWorkflowEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 2)
	// 1. Alice creates the repository: no role or maintainers tag.
	w.seed(alice.announce(t, w.id, 100))

	// 2. Alice invites Bob and becomes lead automatically (untimed self-M).
	m := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob, "1000"), projection(alice, bob))
	if got := members(t, m); got["bob"] != "invited" || got["alice"] != "confirmed" {
		t.Fatalf("after invite: %v", got)
	}
	if m["verified"] != true || len(m["published"].([]any)) != 1 {
		t.Fatalf("not verified: %v", m)
	}

	// 3. Bob accepts: active M to Alice and active self-m, nothing else.
	m = w.ok(bob, alice, 2000, "repo", "accept")
	w.wantLatest(bob, bare("clone"), bare("web"), bare("relays"), projection(alice, bob), role("M", alice, "2000"), role("m", bob, "2000"))
	if got := members(t, m); got["bob"] != "confirmed" {
		t.Fatalf("after accept: %v", got)
	}

	// 4. Alice's next command shows the acknowledgement guidance (roster
	// repo in its pending rows, once); no prompt.
	r := w.run(alice, alice, 2500, "repo")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "roster repo edit --acknowledge-maintainer-change "+bob.npub()) {
		t.Fatalf("lead guidance missing (exit %d):\n%s%s", r.Code, r.Out, r.Err)
	}
	w.ok(alice, alice, 3000, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob, "2000"), projection(alice, bob))

	// 5. The guidance stops once recorded.
	r = w.run(alice, alice, 3100, "repo")
	if strings.Contains(r.Err, "--acknowledge-maintainer-change") {
		t.Fatalf("guidance repeats after acknowledgement:\n%s", r.Err)
	}

	// 6. A co-maintainer asks the lead to change the roster.
	e := w.refused(bob, alice, 3200, cmdutil.ExitRefused, "only-lead-manages-roster", "repo", "edit", "--add-maintainer", carol.npub())
	if !strings.Contains(e["error"].(map[string]any)["message"].(string), "ask "+alice.npub()+" to run:") {
		t.Fatalf("refusal: %v", e)
	}
}

// A three-person repository: Carol joins, Bob is shown follow-lead and his
// follow-lead copies Carol's interval as historical-only.
func TestThreePersonRepositoryEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 2)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	w.ok(bob, alice, 2000, "repo", "accept")
	w.ok(alice, alice, 2100, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	w.ok(alice, alice, 2500, "repo", "edit", "--add-maintainer", carol.npub())
	w.ok(carol, alice, 3000, "repo", "accept")
	w.ok(alice, alice, 3100, "repo", "edit", "--acknowledge-maintainer-change", carol.npub())
	w.wantLatest(alice, role("M", alice), role("m", bob, "2000"), role("m", carol, "3000"), projection(alice, bob, carol))

	r := w.run(bob, alice, 3200, "repo")
	if !strings.Contains(r.Err, "roster repo follow-lead") {
		t.Fatalf("bob is not shown follow-lead:\n%s", r.Err)
	}
	w.ok(bob, alice, 3300, "repo", "follow-lead")
	w.wantLatest(bob, bare("clone"), bare("web"), bare("relays"), projection(alice, bob), role("M", alice, "2000"), role("m", bob, "2000"), role("m", carol, "3000", "defer"))
	// Idempotent: nothing more to publish.
	before := w.storedCount()
	w.ok(bob, alice, 3400, "repo", "follow-lead")
	if w.storedCount() != before {
		t.Fatal("a second follow-lead published again")
	}
	// --dry-run previews and publishes nothing.
	before = w.storedCount()
	m := w.ok(alice, alice, 3500, "repo", "edit", "--add-maintainer", dave.npub(), "--dry-run")
	if m["dry_run"] != true || w.storedCount() != before || len(m["published"].([]any)) != 0 {
		t.Fatalf("dry run published: %v", m)
	}
	sim := m["preview"].(map[string]any)["simulation"].(map[string]any)
	if inv := sim["newly_invited"].([]any); len(inv) != 1 || inv[0] != dave.npub() {
		t.Fatalf("preview newly_invited %v", inv)
	}
}
