package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (an invitee is never left without a step): Bob's checkout already
// matches the inviting state and his only difference is his old published
// state on his own coordinate (main at his commit). The refusal names the
// refs in both directions (what accepting replaces in his published state,
// and what keeping it would impose), and offers what works for an invitee:
// publishing the aligned state on his own coordinate, where he is the sole
// maintainer, then accepting; or --force. Following the first way succeeds.
func TestInviteeWhoseOnlyDifferenceIsHisPublishedStateIsOfferedAStepThatWorks(t *testing.T) {
	t.Parallel()
	s := clitest.NewJoinScene(t)
	w := s.W
	w.Seed(clitest.Bob.Announce(t, w.Id, 200, nostr.Tag{"clone", s.Url}), clitest.Bob.State(t, w.Id, 300, s.MainB))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	co := s.Clone()
	w.Dir = co.Dir
	m := w.Refused(clitest.Bob, clitest.Alice, 2000, cmdutil.ExitRefused, "state-conflict", "repo", "accept")
	e := m["error"].(map[string]any)
	d := e["details"].(map[string]any)
	ps, _ := d["published_state"].(map[string]any)
	if ps == nil || !clitest.JsonEqual(ps["replaced"], []any{clitest.RefAction("update", "refs/heads/main", s.MainB, s.MainA)}) ||
		!clitest.JsonEqual(ps["kept"], []any{clitest.RefAction("update", "refs/heads/main", s.MainA, s.MainB)}) {
		t.Fatalf("published_state %v", d)
	}
	msg := e["message"].(string)
	if !strings.Contains(msg, "refs/heads/main") {
		t.Fatalf("no ref named: %q", msg)
	}
	own := gitstate.NostrURL(clitest.Bob.Coord(w.Id), nil)
	cmds := clitest.ToStrings(e["commands"])
	if len(cmds) == 0 || !strings.HasPrefix(cmds[0], "roster repo state publish --repo "+own) || !strings.Contains(cmds[0], " --force") {
		t.Fatalf("first command %v, want the state publish on Bob's own coordinate", cmds)
	}
	r := clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Bob), Dir: co.Dir}.Roster(t, append([]string{"repo", "state", "publish", "--repo", own, "--force", "--json", "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("state publish on his own coordinate: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	w.Ok(clitest.Bob, clitest.Alice, 2100, "repo", "accept")
	if got := s.ResolvedState(2101); got["refs"].(map[string]any)["refs/heads/main"] != s.MainA {
		t.Fatalf("resolves %v", got)
	}
}
