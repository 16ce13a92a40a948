package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

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
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.Ok(clitest.Carol, clitest.Alice, 1100, "repo", "accept")
	w.Ok(clitest.Alice, clitest.Alice, 1200, "repo", "edit", "--acknowledge-maintainer-change", clitest.Carol.Npub())
	cc := s.Clone()
	x2 := cc.Commit("carol's X2")
	cc.Git("push", "-q", s.Url, "main")
	carols := clitest.Carol.State(t, w.Id, 2500, x2)
	w.Seed(carols, clitest.Bob.Announce(t, w.Id, 200, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.State(t, w.Id, 2600, s.MainB))

	w.Dir = s.Alice.Dir
	m := w.Refused(clitest.Alice, clitest.Alice, 3000, cmdutil.ExitRefused, "force-rewinds", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force")
	e := m["error"].(map[string]any)
	msg := e["message"].(string)
	if !strings.Contains(msg, "rewinds refs/heads/main from "+x2+" ("+clitest.Carol.Npub()) || !strings.Contains(msg, "to "+s.MainA) {
		t.Fatalf("message %q", msg)
	}
	if !strings.Contains(msg, "--rewind refs/heads/main") {
		t.Fatalf("message %q does not name the flag", msg)
	}
	d := e["details"].(map[string]any)
	if !clitest.JsonEqual(d["rewinds"], []any{clitest.RefAction("update", "refs/heads/main", x2, s.MainA)}) {
		t.Fatalf("details.rewinds %v", d["rewinds"])
	}
	if st := s.ResolvedState(3001); st["event_id"] != carols.ID {
		t.Fatalf("resolves %v, want Carol's %s", st, carols.ID)
	}

	// Fetched and merged: the checkout contains X2, --force keeps it.
	w.Dir = s.Alice.Dir
	s.Alice.Git("pull", "-q", "--ff-only", s.Url, "main")
	ok := w.Ok(clitest.Alice, clitest.Alice, 3100, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force")
	if ok["state_published"] == nil {
		t.Fatalf("no forced state: %v", ok)
	}
	st := s.ResolvedState(3101)
	if refs, _ := st["refs"].(map[string]any); refs["refs/heads/main"] != x2 {
		t.Fatalf("resolves %v, want main at Carol's %s", st, x2)
	}
}

// --rewind is only a narrowing of --force and takes full ref names.
func TestRewindNeedsForceAndAFullRef(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	for _, args := range [][]string{
		{"repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--rewind", "refs/heads/main"},
		{"repo", "accept", "--rewind", "refs/heads/main"},
		{"repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force", "--rewind", "main"},
	} {
		r := w.Run(clitest.Alice, clitest.Alice, 1000, args...)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--rewind") {
			t.Errorf("%v: exit %d %s", args, r.Code, r.Err)
		}
	}
}
