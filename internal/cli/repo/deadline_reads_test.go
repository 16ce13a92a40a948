package repo_test

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (docs/usage.md "How long a command can take": --deadline caps the
// whole command and exits 4 `deadline` when it passes): a read that one
// relay answered and another still holds when the deadline passes is not a
// partial success. `roster repo`, `repo history` and `repo graph` exit 4
// with code `deadline` and phase `discovering`, instead of exit 0 with
// `complete: false`.
func TestADeadlineThatEndsAReadIsExit4Deadline(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Relays[1].SetSlow(8 * time.Second)
	for _, cmd := range [][]string{{"repo"}, {"repo", "history"}, {"repo", "graph"}} {
		start := time.Now()
		r := w.Run(clitest.Alice, clitest.Alice, 1000, append(cmd, "--timeout", "10s", "--deadline", "400ms", "--json")...)
		took := time.Since(start)
		_, e := clitest.MutationJSON(t, r)
		if r.Code != cmdutil.ExitIncomplete || e == nil || e["code"] != "deadline" {
			t.Fatalf("roster %s --deadline 400ms: exit %d error %v, want 4 deadline\n%s", strings.Join(cmd, " "), r.Code, e, r.Out)
		}
		if d, _ := e["details"].(map[string]any); d["phase"] != "discovering" || d["deadline"] != "400ms" {
			t.Fatalf("roster %s: details %v, want phase discovering and the deadline", strings.Join(cmd, " "), e["details"])
		}
		if took > 4*time.Second {
			t.Fatalf("roster %s took %v with --deadline 400ms", strings.Join(cmd, " "), took)
		}
	}
	// Without a deadline the same read waits for the relay and succeeds.
	w.Relays[1].SetSlow(0)
	if r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "--deadline", "30s", "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("roster repo with a generous deadline: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
}
