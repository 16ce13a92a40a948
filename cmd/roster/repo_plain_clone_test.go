package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// cloneScene is an ordinary multi-branch repository: Alice's checkout has
// main, dev and an annotated tag v1, its origin is the bare server her
// announcement advertises as its clone URL (file://), she pushed
// everything there and published it with `roster repo state publish`, and
// invited Bob.
type cloneScene struct {
	w                 *mutWorld
	bare, alice       *gitWork
	url               string
	base, main, dev   string
	tag, tagCommitOID string
}

func newCloneScene(t *testing.T) *cloneScene {
	t.Helper()
	s := &cloneScene{w: newMutWorld(t, 1), alice: newGitWork(t)}
	s.bare, s.url = newBareServer(t)
	s.base = s.alice.commit("first")
	s.alice.git("checkout", "-q", "-b", "dev")
	s.dev = s.alice.commit("dev work")
	s.alice.git("checkout", "-q", "main")
	s.main = s.alice.commit("second")
	s.alice.git("tag", "-a", "-m", "release one", "v1", s.base)
	s.tag, s.tagCommitOID = s.alice.rev("refs/tags/v1"), s.base
	s.alice.git("remote", "add", "origin", s.url)
	s.alice.git("push", "-q", "origin", "main", "dev", "v1")
	s.w.seed(alice.announce(t, s.w.id, 100, nostr.Tag{"clone", s.url}))
	s.w.dir = s.alice.dir
	s.w.ok(alice, alice, 200, "repo", "state", "publish")
	s.w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	return s
}

// plainClone is `git clone <the advertised URL>`: one local branch (main),
// dev only as origin/dev, the tag fetched, origin the file:// server.
func (s *cloneScene) plainClone() *gitWork {
	parent := &gitWork{t: s.w.t, dir: s.w.t.TempDir()}
	parent.git("clone", "-q", s.url, "c")
	return &gitWork{t: s.w.t, dir: filepath.Join(parent.dir, "c")}
}

// "Remote-tracking refs of the advertised servers count": a plain `git
// clone` of the clone URL the component advertises is aligned with the
// state it published, so the invitee's acceptance goes through (exit 0)
// and publishes no state of its own.
func TestAPlainCloneOfTheAdvertisedServerAccepts(t *testing.T) {
	t.Parallel()
	s := newCloneScene(t)
	co := s.plainClone()
	if got := co.git("branch", "--format=%(refname)"); got != "refs/heads/main" {
		t.Fatalf("a plain clone has only main locally, got %q", got)
	}
	s.w.dir = co.dir
	st := s.w.ok(bob, alice, 2000, "repo", "state")
	c := st["checkout"].(map[string]any)
	if c["aligned"] != true || !jsonEqual(c["tracked"], []any{"refs/heads/dev"}) ||
		!jsonEqual(c["tracked_by"], map[string]any{"refs/heads/dev": "origin/dev"}) {
		t.Fatalf("repo state in a plain clone: %v", c)
	}
	m := s.w.ok(bob, alice, 2000, "repo", "accept")
	if got := members(t, m); got["bob"] != "confirmed" {
		t.Fatalf("members %v", got)
	}
	if m["state_published"] != nil {
		t.Fatalf("an aligned accept publishes no state: %v", m["state_published"])
	}
	if n := len(s.w.relays[0].Stored(nostr.Filter{Kinds: []int{30618}, Authors: []string{bob.pk}})); n != 0 {
		t.Fatalf("bob's accept stored %d state event(s)", n)
	}
}

// The human preview of that acceptance names the branches it counted
// through remote-tracking branches.
func TestAcceptPreviewNamesTheTrackedBranches(t *testing.T) {
	t.Parallel()
	s := newCloneScene(t)
	s.w.dir = s.plainClone().dir
	r := s.w.run(bob, alice, 2000, "repo", "accept", "--dry-run")
	if r.Code != exitOK || !strings.Contains(r.Out, "refs/heads/dev (origin/dev)") {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
}

// A remote whose URL is not one the component advertises does not stand
// for the repository: its remote-tracking branches never align a branch.
func TestRemoteTrackingBranchesOfAnUnadvertisedRemoteDoNotCount(t *testing.T) {
	t.Parallel()
	s := newCloneScene(t)
	co := s.plainClone()
	co.git("remote", "set-url", "origin", "file://"+filepath.Join(t.TempDir(), "elsewhere.git"))
	s.w.dir = co.dir
	m := s.w.refused(bob, alice, 2000, exitRefused, "state-conflict", "repo", "accept")
	d := m["error"].(map[string]any)["details"].(map[string]any)
	if !jsonEqual(d["align"], []any{refAction("add", "refs/heads/dev", "", s.dev)}) {
		t.Fatalf("align %v", d["align"])
	}
}
