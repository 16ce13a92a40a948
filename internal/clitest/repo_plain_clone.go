package clitest

import (
	"path/filepath"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// CloneScene is an ordinary multi-branch repository: Alice's checkout has
// main, dev and an annotated tag v1, its origin is the bare server her
// announcement advertises as its clone URL (file://), she pushed
// everything there and published it with `roster repo state publish`, and
// invited Bob.
type CloneScene struct {
	W                 *MutWorld
	Bare, Alice       *GitWork
	Url               string
	Base, Main, Dev   string
	Tag, TagCommitOID string
}

func NewCloneScene(t *testing.T) *CloneScene {
	t.Helper()
	s := &CloneScene{W: NewMutWorld(t, 1), Alice: NewGitWork(t)}
	s.Bare, s.Url = NewBareServer(t)
	s.Base = s.Alice.Commit("first")
	s.Alice.Git("checkout", "-q", "-b", "dev")
	s.Dev = s.Alice.Commit("dev work")
	s.Alice.Git("checkout", "-q", "main")
	s.Main = s.Alice.Commit("second")
	s.Alice.Git("tag", "-a", "-m", "release one", "v1", s.Base)
	s.Tag, s.TagCommitOID = s.Alice.Rev("refs/tags/v1"), s.Base
	s.Alice.Git("remote", "add", "origin", s.Url)
	s.Alice.Git("push", "-q", "origin", "main", "dev", "v1")
	s.W.Seed(Alice.Announce(t, s.W.Id, 100, nostr.Tag{"clone", s.Url}))
	s.W.Dir = s.Alice.Dir
	s.W.Ok(Alice, Alice, 200, "repo", "state", "publish")
	s.W.Ok(Alice, Alice, 1000, "repo", "edit", "--add-maintainer", Bob.Npub())
	return s
}

// PlainClone is `git clone <the advertised URL>`: one local branch (main),
// dev only as origin/dev, the tag fetched, origin the file:// server.
func (s *CloneScene) PlainClone() *GitWork {
	parent := &GitWork{T: s.W.T, Dir: s.W.T.TempDir()}
	parent.Git("clone", "-q", s.Url, "c")
	return &GitWork{T: s.W.T, Dir: filepath.Join(parent.Dir, "c")}
}
