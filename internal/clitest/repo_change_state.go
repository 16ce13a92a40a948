package clitest

import (
	"path/filepath"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// JoinScene is a repository with real Git objects for membership changes
// that touch kind 30618 state: Alice's announcement advertises a bare
// repository over file://, her work repository (a checkout whose origin is
// her nostr:// URL) pushed main there and she published that as the state.
// Bob's own commit on main is on the server too (as refs/heads/bob), so a
// state naming it is fetchable.
type JoinScene struct {
	W            *MutWorld
	Bare         *GitWork
	Url          string
	Alice        *GitWork
	MainA, MainB string
}

func NewJoinScene(t *testing.T) *JoinScene {
	t.Helper()
	s := &JoinScene{W: NewMutWorld(t, 1), Alice: NewGitWork(t)}
	s.Bare, s.Url = NewBareServer(t)
	s.MainA = s.Alice.Commit("first")
	s.Alice.PushTo(s.Bare, "main")
	s.Alice.Git("remote", "add", "origin", gitstate.NostrURL(Alice.Coord(s.W.Id), nil))
	bob := s.Clone()
	s.MainB = bob.Commit("bob's work")
	bob.PushTo(s.Bare, "main:refs/heads/bob")
	s.W.Seed(Alice.Announce(t, s.W.Id, 100, nostr.Tag{"clone", s.Url}), Alice.State(t, s.W.Id, 110, s.MainA))
	return s
}

// Clone is a plain `git clone` of the server whose origin then names
// Alice's coordinate, as git-remote-nostr leaves one.
func (s *JoinScene) Clone() *GitWork {
	parent := &GitWork{T: s.W.T, Dir: s.W.T.TempDir()}
	parent.Git("clone", "-q", s.Url, "c")
	c := &GitWork{T: s.W.T, Dir: filepath.Join(parent.Dir, "c")}
	c.Git("remote", "set-url", "origin", gitstate.NostrURL(Alice.Coord(s.W.Id), nil))
	return c
}

// Stored are the kind 30618 events author's relays store.
func (s *JoinScene) Stored(author Person) []*nostr.Event {
	return s.W.Relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindState}, Authors: []string{author.Pk}})
}

// ResolvedState is `roster repo state --json`'s state object.
func (s *JoinScene) ResolvedState(now int64) map[string]any {
	s.W.T.Helper()
	s.W.Dir = s.W.T.TempDir()
	st, _ := s.W.Ok(Alice, Alice, now, "repo", "state")["state"].(map[string]any)
	return st
}

func RefAction(action, ref, from, to string) map[string]any {
	m := map[string]any{"action": action, "ref": ref}
	if from != "" {
		m["from"] = from
	}
	if to != "" {
		m["to"] = to
	}
	return m
}

// AcceptedBob: Alice invited Bob, he accepted outside a checkout, she
// acknowledged him.
func AcceptedBob(t *testing.T) *JoinScene {
	s := NewJoinScene(t)
	w := s.W
	w.Ok(Alice, Alice, 1000, "repo", "edit", "--add-maintainer", Bob.Npub())
	w.Ok(Bob, Alice, 2000, "repo", "accept")
	w.Ok(Alice, Alice, 2050, "repo", "edit", "--acknowledge-maintainer-change", Bob.Npub())
	return s
}
