package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (a handoff blocked by an unfetchable state names the way out): Bob's
// state, which the removal must hand on, names a commit no remaining Git
// server has. The removal is refused (objects-unavailable, nothing stored)
// and says how to get out: fetch the objects and push them, or publish a
// state the servers serve with `roster repo state publish --force`, then
// rerun the removal.
func TestHandoffBlockedByUnfetchableObjectsNamesTheWayOut(t *testing.T) {
	t.Parallel()
	s := clitest.AcceptedBob(t)
	w := s.W
	co := s.Clone()
	unpushed := co.Commit("bob's work nobody serves")
	w.Seed(clitest.Bob.State(t, w.Id, 2200, unpushed))
	m := w.Refused(clitest.Alice, clitest.Alice, 3000, cmdutil.ExitRefused, "objects-unavailable", "repo", "edit", "--remove-maintainer", clitest.Bob.Npub())
	e := m["error"].(map[string]any)
	msg := e["message"].(string)
	if !strings.Contains(msg, "roster repo state publish --force") || !strings.Contains(msg, "rerun the removal") {
		t.Fatalf("message %q", msg)
	}
	cmds := strings.Join(clitest.ToStrings(e["commands"]), "\n")
	for _, want := range []string{"git fetch", "roster repo state publish", "--remove-maintainer " + clitest.Bob.Npub()} {
		if !strings.Contains(cmds, want) {
			t.Fatalf("commands lack %q:\n%s", want, cmds)
		}
	}
}
