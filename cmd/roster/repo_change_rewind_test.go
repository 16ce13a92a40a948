package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (--force is guarded against the state in effect as well as the
// other view): Carol, a confirmed co-maintainer, published main at X2;
// Alice's checkout is at X1, X2's parent; Bob's newer state would win once
// he is confirmed, so Alice forces her add. The forced state would rewind
// Carol's main: it is listed ("rewinds refs/heads/main from X2 (carol ...)
// to X1") and refused (force-rewinds, exit 3, nothing stored), and the
// repository still resolves Carol's X2. Once Alice fetched and merged X2
// the same --force goes through and keeps it.
func TestStaleForceDoesNotRewindACoMaintainersState(t *testing.T) {
	t.Parallel()
	s := newJoinScene(t)
	w := s.w
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", carol.npub())
	w.ok(carol, alice, 1100, "repo", "accept")
	w.ok(alice, alice, 1200, "repo", "edit", "--acknowledge-maintainer-change", carol.npub())
	cc := s.clone()
	x2 := cc.commit("carol's X2")
	cc.git("push", "-q", s.url, "main")
	carols := carol.state(t, w.id, 2500, x2)
	w.seed(carols, bob.announce(t, w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
		bob.state(t, w.id, 2600, s.mainB))

	w.dir = s.alice.dir
	m := w.refused(alice, alice, 3000, cmdutil.ExitRefused, "force-rewinds", "repo", "edit", "--add-maintainer", bob.npub(), "--force")
	e := m["error"].(map[string]any)
	msg := e["message"].(string)
	if !strings.Contains(msg, "rewinds refs/heads/main from "+x2+" ("+carol.npub()) || !strings.Contains(msg, "to "+s.mainA) {
		t.Fatalf("message %q", msg)
	}
	if !strings.Contains(msg, "--rewind refs/heads/main") {
		t.Fatalf("message %q does not name the flag", msg)
	}
	d := e["details"].(map[string]any)
	if !jsonEqual(d["rewinds"], []any{refAction("update", "refs/heads/main", x2, s.mainA)}) {
		t.Fatalf("details.rewinds %v", d["rewinds"])
	}
	if st := s.resolvedState(3001); st["event_id"] != carols.ID {
		t.Fatalf("resolves %v, want Carol's %s", st, carols.ID)
	}

	// Fetched and merged: the checkout contains X2, --force keeps it.
	w.dir = s.alice.dir
	s.alice.git("pull", "-q", "--ff-only", s.url, "main")
	ok := w.ok(alice, alice, 3100, "repo", "edit", "--add-maintainer", bob.npub(), "--force")
	if ok["state_published"] == nil {
		t.Fatalf("no forced state: %v", ok)
	}
	st := s.resolvedState(3101)
	if refs, _ := st["refs"].(map[string]any); refs["refs/heads/main"] != x2 {
		t.Fatalf("resolves %v, want main at Carol's %s", st, x2)
	}
}

// --rewind is only a narrowing of --force and takes full ref names.
func TestRewindNeedsForceAndAFullRef(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	for _, args := range [][]string{
		{"repo", "edit", "--add-maintainer", bob.npub(), "--rewind", "refs/heads/main"},
		{"repo", "accept", "--rewind", "refs/heads/main"},
		{"repo", "edit", "--add-maintainer", bob.npub(), "--force", "--rewind", "main"},
	} {
		r := w.run(alice, alice, 1000, args...)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--rewind") {
			t.Errorf("%v: exit %d %s", args, r.Code, r.Err)
		}
	}
}
