package checkevent_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule: check-event's verdict needs every relay's answer, so --offline is
// refused with that reason (not as a flag the command lacks), before any
// relay is asked; the suggested command is the same check without it.
func TestCheckEventOfflineIsRefusedBecauseAVerdictNeedsEveryRelay(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	id := strings.Repeat("ab", 32)
	reqs := relay.ReqCount()
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, "repo", "check-event", id, "--offline", "--relay", relay.URL(), "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitUsage || e.Error.Code != "usage" || !strings.Contains(e.Error.Message, "needs every relay's answer") ||
		strings.Contains(e.Error.Message, "does not take") {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
	if len(e.Error.Commands) != 1 || !strings.Contains(e.Error.Commands[0], "check-event "+id) || strings.Contains(e.Error.Commands[0], "--offline") {
		t.Fatalf("commands %v", e.Error.Commands)
	}
	if relay.ReqCount() != reqs {
		t.Fatalf("--offline asked the relay %d time(s)", relay.ReqCount()-reqs)
	}
}
