package state_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/clitest"
)

// publishUnder runs Alice's `repo state publish --json` in her clone under
// ctx (main's signal-aware context: cancelling it is an interrupt), with
// the world's seams, and decodes its error object.
func publishUnder(t *testing.T, s *clitest.StateScene, ctx context.Context) (clitest.Result, map[string]any) {
	t.Helper()
	w := s.W
	args := append([]string{"--repo", clitest.Alice.Naddr(w.Id), "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)
	args = append(args, "repo", "state", "publish", "--json")
	r := clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Alice), Dir: w.Dir, Now: time.Unix(1000, 0), Seams: w.Seams, Ctx: ctx}.Roster(t, args...)
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("%v\nstdout %s\nstderr %s", err, r.Out, r.Err)
	}
	e, _ := m["error"].(map[string]any)
	if e == nil {
		t.Fatalf("exit %d, no error object\n%s", r.Code, r.Out)
	}
	return r, e
}

// Rule (an interrupt says what was published): Ctrl-C while `repo state
// publish` rechecks, before the state event is signed, exits 130 with the
// error code `interrupted`, phase `rechecking` and a message saying
// nothing was published, and the relay stores no new state; Ctrl-C once
// the relay accepted the event (before its read-back) exits 6, still
// `interrupted`, naming the event published and `roster repo state`
// first, and the relay keeps it.
func TestAnInterruptedStatePublishSaysWhetherItPublished(t *testing.T) {
	t.Parallel()
	t.Run("before-signing", func(t *testing.T) {
		t.Parallel()
		s := clitest.NewStateScene(t)
		s.Clone.Commit("alice's next")
		s.Clone.Git("push", "-q", s.CloneURL, "main")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s.W.Seams.BeforeRecheck = cancel
		before := len(s.StoredStates())
		r, e := publishUnder(t, s, ctx)
		if r.Code != cmdutil.ExitInterrupted || e["code"] != "interrupted" {
			t.Fatalf("exit %d code %v; want 130 interrupted\n%s", r.Code, e["code"], r.Out)
		}
		msg, _ := e["message"].(string)
		if !strings.Contains(msg, "stopped while rechecking; nothing was published") {
			t.Fatalf("message %q does not say it stopped rechecking with nothing published", msg)
		}
		if d, _ := e["details"].(map[string]any); d["phase"] != "rechecking" {
			t.Fatalf("details %v, want phase rechecking", d)
		}
		if cmds, _ := e["commands"].([]any); len(cmds) == 0 || !strings.HasPrefix(clitest.Str(cmds[0]), "roster repo state publish") {
			t.Fatalf("commands %v, want the same publish first", e["commands"])
		}
		if got := len(s.StoredStates()); got != before {
			t.Fatalf("%d state events stored by an interrupted publish", got-before)
		}
	})
	t.Run("after-the-relay-accepted", func(t *testing.T) {
		t.Parallel()
		s := clitest.NewStateScene(t)
		s.Clone.Commit("alice's next")
		s.Clone.Git("push", "-q", s.CloneURL, "main")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s.W.Seams.AfterPublish = cancel
		r, e := publishUnder(t, s, ctx)
		if r.Code != cmdutil.ExitUnverified || e["code"] != "interrupted" {
			t.Fatalf("exit %d code %v; want 6 interrupted\n%s", r.Code, e["code"], r.Out)
		}
		d, _ := e["details"].(map[string]any)
		pub, _ := d["published"].([]any)
		if len(pub) != 1 || d["phase"] != "reading back" {
			t.Fatalf("details %v; want the published event and phase reading back", d)
		}
		msg, _ := e["message"].(string)
		if strings.Contains(msg, "nothing was published") || !strings.Contains(msg, "state event "+clitest.Str(pub[0])+" was published to 1 relay") {
			t.Fatalf("message %q; want the event published to the relay", msg)
		}
		if cmds, _ := e["commands"].([]any); len(cmds) == 0 || !strings.HasPrefix(clitest.Str(cmds[0]), "roster repo state ") || strings.HasPrefix(clitest.Str(cmds[0]), "roster repo state publish") {
			t.Fatalf("commands %v, want roster repo state first", e["commands"])
		}
		// Alice's state is addressable: the published one replaced hers.
		if got := s.StoredStates(); len(got) != 1 || got[0].ID != clitest.Str(pub[0]) {
			t.Fatalf("the relay stores %v, want only the published %v", got, pub[0])
		}
	})
}
