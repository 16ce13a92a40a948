package main

import (
	"strings"
	"testing"

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
	s := newJoinScene(t)
	w := s.w
	w.seed(bob.announce(t, w.id, 200, nostr.Tag{"clone", s.url}), bob.state(t, w.id, 300, s.mainB))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	co := s.clone()
	w.dir = co.dir
	m := w.refused(bob, alice, 2000, cmdutil.ExitRefused, "state-conflict", "repo", "accept")
	e := m["error"].(map[string]any)
	d := e["details"].(map[string]any)
	ps, _ := d["published_state"].(map[string]any)
	if ps == nil || !jsonEqual(ps["replaced"], []any{refAction("update", "refs/heads/main", s.mainB, s.mainA)}) ||
		!jsonEqual(ps["kept"], []any{refAction("update", "refs/heads/main", s.mainA, s.mainB)}) {
		t.Fatalf("published_state %v", d)
	}
	msg := e["message"].(string)
	if !strings.Contains(msg, "refs/heads/main") {
		t.Fatalf("no ref named: %q", msg)
	}
	own := gitstate.NostrURL(bob.coord(w.id), nil)
	cmds := toStrings(e["commands"])
	if len(cmds) == 0 || !strings.HasPrefix(cmds[0], "roster repo state publish --repo "+own) || !strings.Contains(cmds[0], " --force") {
		t.Fatalf("first command %v, want the state publish on Bob's own coordinate", cmds)
	}
	r := invocation{Env: withKey(w.home, bob), Dir: co.dir}.roster(t, append([]string{"repo", "state", "publish", "--repo", own, "--force", "--json", "--timeout", "5s", "--home", w.home["ROSTER_HOME"]}, relayArgs(w.relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("state publish on his own coordinate: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	w.ok(bob, alice, 2100, "repo", "accept")
	if got := s.resolvedState(2101); got["refs"].(map[string]any)["refs/heads/main"] != s.mainA {
		t.Fatalf("resolves %v", got)
	}
}
