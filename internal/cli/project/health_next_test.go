package project_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (an incomplete verdict says what to run next, in every output): the
// health report stands in for the error that ends `project health`, so the
// commands of an incomplete verdict (a member not judged, a relay silent
// about the project) are its "commands" in --json, "next:" lines in the
// human report and a "roster: next" notice in --format github; a healthy
// verdict has "commands": [].
func TestProjectHealthIncompleteVerdictNamesWhatToRunNextInEveryFormat(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	good := w.MemberRepo("alpha", false)
	w.Identity(nostr.Now()-10, nostr.Tag{"a", good})
	ok := w.As(clitest.PcStrangerSK, "project", "health", w.Coord.String(), "--json")
	if cmds := clitest.HealthCommands(t, ok); ok.Code != cmdutil.ExitOK || cmds == nil || len(cmds) != 0 {
		t.Fatalf("a healthy verdict: exit %d, commands %q\n%s", ok.Code, cmds, ok.Out)
	}
	args := []string{"project", "health", w.Coord.String(), "--relay", "ws://127.0.0.1:1"}
	r := w.As(clitest.PcStrangerSK, append(args, "--json")...)
	cmds := clitest.HealthCommands(t, r)
	if r.Code != cmdutil.ExitIncomplete || len(cmds) == 0 {
		t.Fatalf("an incomplete verdict: exit %d, commands %q\n%s", r.Code, cmds, r.Out)
	}
	clitest.CommandStarting(t, cmds, "roster project show "+w.Coord.String())
	clitest.WantHealthNext(t, w, cmds, args...)
}
