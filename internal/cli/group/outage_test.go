package group_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (docs/exit-codes.md): group show with a relay that did not answer is
// incomplete evidence (exit 4, code incomplete), naming the relay, its
// failure and the retry with the same --relay flags.
func TestGroupShowUnreachableRelayIsIncompleteNotNotFound(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, "group", "show", clitest.PcHome, "--relay", clitest.DeadRelay, "--json", "--timeout", "5s")
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitIncomplete || e.Code != "incomplete" || !strings.Contains(e.Message, clitest.DeadRelay) ||
		!strings.Contains(e.Message, "connection refused") || strings.Contains(e.Message, "failed failed") {
		t.Fatalf("exit %d: %+v", r.Code, e)
	}
	if !strings.Contains(e.Commands[0], "roster group show "+clitest.PcHome+" --relay "+clitest.DeadRelay) {
		t.Fatalf("commands %q", e.Commands)
	}
	// A relay that answers without the group: not-found.
	w := clitest.NewPCWorld(t)
	r = clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, "group", "show", clitest.PcHome, "--relay", w.Relay.URL(), "--json", "--timeout", "5s")
	if e := clitest.ErrorBody(t, r); r.Code != cmdutil.ExitIncomplete || e.Code != "not-found" {
		t.Fatalf("exit %d: %+v", r.Code, e)
	}
}
