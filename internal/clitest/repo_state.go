package clitest

import (
	"path/filepath"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// StateScene is a repository with real Git objects: Alice's announcement
// advertises a bare repository over file://, her work repository pushed
// main, dev and the annotated tag v1 there, and Alice published that as the
// state. w.dir is a plain `git clone` of the bare repository whose origin
// is Alice's nostr:// URL, as git-remote-nostr leaves a clone.
type StateScene struct {
	W               *MutWorld
	Work, Bare      *GitWork
	CloneURL        string
	MainOID, DevOID string
	TagOID          string
	Clone           *GitWork
}

func NewStateScene(t *testing.T) *StateScene {
	t.Helper()
	s := &StateScene{W: NewMutWorld(t, 1), Work: NewGitWork(t)}
	s.Bare, s.CloneURL = NewBareServer(t)
	s.MainOID = s.Work.Commit("first")
	s.Work.Git("tag", "-a", "-m", "v1", "v1")
	s.TagOID = s.Work.Rev("v1")
	s.Work.Git("checkout", "-q", "-b", "dev")
	s.DevOID = s.Work.Commit("dev work")
	s.Work.Git("checkout", "-q", "main")
	s.Work.PushTo(s.Bare, "main", "dev", "v1")
	s.W.Seed(Alice.Announce(t, s.W.Id, 100, nostr.Tag{"clone", s.CloneURL}),
		Alice.Sign(t, graph.KindState, 110, nostr.Tag{"d", s.W.Id}, nostr.Tag{"refs/heads/main", s.MainOID},
			nostr.Tag{"refs/heads/dev", s.DevOID}, nostr.Tag{"refs/tags/v1", s.TagOID}, nostr.Tag{"refs/tags/v1^{}", s.MainOID},
			nostr.Tag{"HEAD", "ref: refs/heads/main"}))
	parent := &GitWork{T: t, Dir: t.TempDir()}
	parent.Git("clone", "-q", s.CloneURL, "c")
	s.Clone = &GitWork{T: t, Dir: filepath.Join(parent.Dir, "c")}
	s.Clone.Git("remote", "set-url", "origin", gitstate.NostrURL(Alice.Coord(s.W.Id), nil))
	s.W.Dir = s.Clone.Dir
	return s
}

// StateOf runs `roster repo state --json` as p and decodes it.
func (s *StateScene) StateOf(p Person, now int64) map[string]any {
	s.W.T.Helper()
	return s.W.Ok(p, Alice, now, "repo", "state")
}

func Str(v any) string {
	s, _ := v.(string)
	return s
}

// StoredStates are the kind 30618 events the relay stores.
func (s *StateScene) StoredStates() []*nostr.Event {
	return s.W.Relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindState}})
}
