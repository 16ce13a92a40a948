package main

import (
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rows of TestEveryPrintedCommandMovesForward for repo init and its
// announcement pipeline, the journal of unfinished writes, the cache, the
// hooks, the checkout's coordinate, login and the dev relay.
func init() { suggestionRows = append(suggestionRows, rrepoRows...) }

// inClone is p working in a fresh checkout with one commit.
func inClone(t *testing.T, p suggestPerson) (suggestPerson, *gitWork) {
	t.Helper()
	g := newGitWork(t)
	g.commit("first")
	p.dir = g.dir
	return p, g
}

var rrepoRows = []suggestionRow{
	{"repo init with no relays: --relay", func(t *testing.T) {
		s := newSuggestScene(t)
		p, _ := inClone(t, s.alice)
		r := s.roster(t, p, "repo", "init", "--json")
		e := wantError(t, r, cmdutil.ExitUsage, "no-relays")
		if got := s.wantFurther(t, r, p, commandStarting(t, e.Commands, "roster repo init --relay")); got.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", got.Code, got.Out, got.Err)
		}
	}},
}
