package state_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// stateWithBob is a stateScene where Bob is a confirmed co-maintainer, and
// Alice's clone has a new commit on main pushed to the server: her
// `repo state publish` would move main to it.
func stateWithBob(t *testing.T) (*clitest.StateScene, string) {
	s := clitest.NewStateScene(t)
	dir := s.W.Dir
	s.W.Dir = t.TempDir()
	s.W.Ok(clitest.Alice, clitest.Alice, 200, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	s.W.Ok(clitest.Bob, clitest.Alice, 300, "repo", "accept")
	s.W.Ok(clitest.Alice, clitest.Alice, 400, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())
	s.W.Dir = dir
	next := s.Clone.Commit("alice's next")
	s.Clone.Git("push", "-q", s.CloneURL, "main")
	return s, next
}

// Rule (state publish goes through the recheck): Bob publishes main = c3
// between Alice's preview and her publish. Her publish stops at the
// recheck (concurrent-change, exit 3, naming Bob's state), stores nothing,
// and a third reader still resolves Bob's c3.
func TestStatePublishRechecksAndDoesNotDropAConcurrentState(t *testing.T) {
	t.Parallel()
	s, _ := stateWithBob(t)
	c3 := s.Work.Commit("bob's c3")
	s.Work.PushTo(s.Bare, "main:refs/heads/bob")
	bobs := clitest.Bob.State(t, s.W.Id, 900, c3)
	s.W.Seams.BeforeRecheck = func() { s.W.Seed(bobs) }
	before := len(s.StoredStates())
	r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatal(err, r.Out, r.Err)
	}
	e, _ := m["error"].(map[string]any)
	if r.Code != cmdutil.ExitRefused || e == nil || e["code"] != "concurrent-change" {
		t.Fatalf("exit %d\n%s", r.Code, r.Out)
	}
	if msg := e["message"].(string); !strings.Contains(msg, "repository state of "+clitest.Bob.Npub()) || !strings.Contains(msg, "nothing was published") {
		t.Fatalf("message %q does not name Bob's state", msg)
	}
	// Only Bob's concurrent state was stored: nothing of Alice's.
	if got := len(s.StoredStates()); got != before+1 {
		t.Fatalf("%d state events stored, want only Bob's one more", got-before)
	}
	s.W.Seams.BeforeRecheck = nil
	s.W.Dir = t.TempDir()
	if st := s.StateOf(clitest.Carol, 1001)["state"].(map[string]any); st["event_id"] != bobs.ID {
		t.Fatalf("a third reader resolves %v, want Bob's %s", st["event_id"], bobs.ID)
	}
}

// Rule (the confirmation after publishing): a newer state that resolves
// instead of the published one is `superseded`, exit 6, naming the
// winner; an older one that arrived meanwhile and is now hidden by ours is
// said too (exit 6), never dropped without a word.
func TestStatePublishConfirmsWhatResolvesAfterPublishing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		created int64
		code    string
	}{{"newer", 5000, "superseded"}, {"older", 999, "unverified"}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, _ := stateWithBob(t)
			c3 := s.Work.Commit("bob's c3")
			s.Work.PushTo(s.Bare, "main:refs/heads/bob")
			bobs := clitest.Bob.State(t, s.W.Id, c.created, c3)
			s.W.Seams.AfterPublish = func() { s.W.Seed(bobs) }
			r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--json")
			var m map[string]any
			if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
				t.Fatal(err, r.Out, r.Err)
			}
			e, _ := m["error"].(map[string]any)
			if r.Code != cmdutil.ExitUnverified || e == nil || e["code"] != c.code || !strings.Contains(e["message"].(string), bobs.ID) {
				t.Fatalf("exit %d\n%s", r.Code, r.Out)
			}
			if pub, _ := e["details"].(map[string]any)["published"].([]any); len(pub) != 1 {
				t.Fatalf("details.published %v", e["details"])
			}
		})
	}
}
