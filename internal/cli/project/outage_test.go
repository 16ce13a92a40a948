package project_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (docs/exit-codes.md): a relay that did not answer is incomplete
// evidence (code incomplete, exit 4), never "not found"; the error names the
// relay and its failure and retries with the user's --relay flags.
func TestProjectShowUnreachableRelayIsIncompleteNotNotFound(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	env := map[string]string{"ROSTER_HOME": t.TempDir()}
	r := clitest.Invocation{Env: env}.Roster(t, "project", "show", w.Coord.String(), "--relay", clitest.DeadRelay, "--json", "--timeout", "5s")
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("exit %d, want 4: %s %s", r.Code, r.Out, r.Err)
	}
	e := clitest.ErrorBody(t, r)
	if e.Code != "incomplete" || !strings.Contains(e.Message, clitest.DeadRelay) || !strings.Contains(e.Message, "connection refused") ||
		strings.Contains(e.Message, "materializes") {
		t.Fatalf("error %+v", e)
	}
	if len(e.Commands) == 0 || !strings.Contains(e.Commands[0], "roster project show "+w.Coord.String()+" --relay "+clitest.DeadRelay) {
		t.Fatalf("the first command does not retry with the same --relay: %q", e.Commands)
	}
	// One relay answered without the project, the other did not answer:
	// still incomplete, since the silent one may host it.
	r = clitest.Invocation{Env: env}.Roster(t, "project", "show", w.Coord.String(), "--relay", w.Relay.URL(), "--relay", clitest.DeadRelay, "--json", "--timeout", "5s")
	if e := clitest.ErrorBody(t, r); r.Code != cmdutil.ExitIncomplete || e.Code != "incomplete" || !strings.Contains(e.Message, "not every relay answered") ||
		!strings.Contains(e.Commands[0], "--relay "+w.Relay.URL()+" --relay "+clitest.DeadRelay) {
		t.Fatalf("exit %d: %+v", r.Code, e)
	}
	// Every relay answered and none has it: that is not-found.
	r = clitest.Invocation{Env: env}.Roster(t, "project", "show", w.Coord.String(), "--relay", w.Relay.URL(), "--json", "--timeout", "5s")
	if e := clitest.ErrorBody(t, r); r.Code != cmdutil.ExitIncomplete || e.Code != "not-found" {
		t.Fatalf("exit %d: %+v", r.Code, e)
	}
}

// Rule: a relay's status and reason are rendered without repeating the
// status word ("failed failed to WebSocket dial"), and a refused
// connection is said in plain words, not the websocket library's chain.
func TestRelayOutcomeDoesNotStutter(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, "project", "show",
		"30621:"+strings.Repeat("ab", 32)+":x", "--relay", clitest.DeadRelay, "--timeout", "5s")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "connection refused: nothing listens at this address") || strings.Contains(r.Err, "WebSocket dial") || strings.Contains(r.Err, "failed failed") {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	for _, c := range []struct{ status, reason, want string }{
		{"failed", "failed to WebSocket dial: refused", "failed to WebSocket dial: refused"},
		{"timeout", "no answer before the timeout", "timeout: no answer before the timeout"},
		{"closed", "", "closed"},
	} {
		if got := cmdutil.RelayOutcome(c.status, c.reason); got != c.want {
			t.Errorf("relayOutcome(%q, %q) = %q, want %q", c.status, c.reason, got, c.want)
		}
		if got := cmdutil.RelayFailure("ws://r", c.status, c.reason); got != "ws://r: "+c.want {
			t.Errorf("relayFailure(ws://r, %q, %q) = %q, want %q", c.status, c.reason, got, "ws://r: "+c.want)
		}
	}
}
