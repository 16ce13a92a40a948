package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// stateWithBob is a stateScene where Bob is a confirmed co-maintainer, and
// Alice's clone has a new commit on main pushed to the server: her
// `repo state publish` would move main to it.
func stateWithBob(t *testing.T) (*stateScene, string) {
	s := newStateScene(t)
	dir := s.w.dir
	s.w.dir = t.TempDir()
	s.w.ok(alice, alice, 200, "repo", "edit", "--add-maintainer", bob.npub())
	s.w.ok(bob, alice, 300, "repo", "accept")
	s.w.ok(alice, alice, 400, "repo", "edit", "--acknowledge-maintainer-change", bob.npub())
	s.w.dir = dir
	next := s.clone.commit("alice's next")
	s.clone.git("push", "-q", s.cloneURL, "main")
	return s, next
}

// Rule (state publish goes through the recheck): Bob publishes main = c3
// between Alice's preview and her publish. Her publish stops at the
// recheck (concurrent-change, exit 3, naming Bob's state), stores nothing,
// and a third reader still resolves Bob's c3.
func TestStatePublishRechecksAndDoesNotDropAConcurrentState(t *testing.T) {
	t.Parallel()
	s, _ := stateWithBob(t)
	c3 := s.work.commit("bob's c3")
	s.work.pushTo(s.bare, "main:refs/heads/bob")
	bobs := bob.state(t, s.w.id, 900, c3)
	s.w.seams.BeforeRecheck = func() { s.w.seed(bobs) }
	before := len(s.storedStates())
	r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatal(err, r.Out, r.Err)
	}
	e, _ := m["error"].(map[string]any)
	if r.Code != cmdutil.ExitRefused || e == nil || e["code"] != "concurrent-change" {
		t.Fatalf("exit %d\n%s", r.Code, r.Out)
	}
	if msg := e["message"].(string); !strings.Contains(msg, "repository state of "+bob.npub()) || !strings.Contains(msg, "nothing was published") {
		t.Fatalf("message %q does not name Bob's state", msg)
	}
	// Only Bob's concurrent state was stored: nothing of Alice's.
	if got := len(s.storedStates()); got != before+1 {
		t.Fatalf("%d state events stored, want only Bob's one more", got-before)
	}
	s.w.seams.BeforeRecheck = nil
	s.w.dir = t.TempDir()
	if st := s.stateOf(carol, 1001)["state"].(map[string]any); st["event_id"] != bobs.ID {
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
			c3 := s.work.commit("bob's c3")
			s.work.pushTo(s.bare, "main:refs/heads/bob")
			bobs := bob.state(t, s.w.id, c.created, c3)
			s.w.seams.AfterPublish = func() { s.w.seed(bobs) }
			r := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--json")
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
