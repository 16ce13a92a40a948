package main

import (
	"context"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/clitest"
)

// Rows of TestEveryPrintedCommandMovesForward for an interrupted
// `repo state publish`.
func init() { suggestionRows = append(suggestionRows, stintRows...) }

// publishInterrupted runs Alice's `repo state publish --json` in her
// checkout under ctx (cancelling it is an interrupt), as s.W.Run would.
func (s stateRowScene) publishInterrupted(t *testing.T, ctx context.Context) clitest.Result {
	t.Helper()
	w := s.W
	args := append([]string{"--repo", clitest.Alice.Naddr(w.Id), "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)
	args = append(args, "repo", "state", "publish", "--json")
	return clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Alice), Dir: w.Dir, Now: time.Unix(1000, 0), Seams: w.Seams, Ctx: ctx}.Roster(t, args...)
}

var stintRows = []suggestionRow{
	{"repo state publish interrupted before signing: the same again", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Clone.Commit("next")
		s.Clone.Git("push", "-q", "origin", "main")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s.W.Seams.BeforeRecheck = cancel
		r := s.publishInterrupted(t, ctx)
		s.W.Seams.BeforeRecheck = nil
		e := wantError(t, r, cmdutil.ExitInterrupted, "interrupted")
		s.pasteOK(t, clitest.Alice, r, clitest.CommandStarting(t, e.Commands, "roster repo state publish"))
	}},
	{"repo state publish interrupted after the relay accepted: repo state shows it", func(t *testing.T) {
		s := newStateRowScene(t)
		s.Clone.Commit("next")
		s.Clone.Git("push", "-q", "origin", "main")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s.W.Seams.AfterPublish = cancel
		r := s.publishInterrupted(t, ctx)
		s.W.Seams.AfterPublish = nil
		e := wantError(t, r, cmdutil.ExitUnverified, "interrupted")
		s.pasteOK(t, clitest.Alice, r, clitest.CommandStarting(t, e.Commands, "roster repo state --"))
	}},
}
