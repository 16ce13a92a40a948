package workspace_test

import (
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (--watch): `workspace show --watch --json` follows the projection
// over a subscription authenticated as the reader (the relay demands
// NIP-42) and prints the workspace again when the owner adds a section
// from another home.
func TestWorkspaceShowWatchPrintsANewSection(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	w.PublishLegacy()
	w.MustAs(clitest.SwOwnerSK, "workspace", "import")
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK), "--role", "viewer")
	env := map[string]string{"ROSTER_SECRET_KEY": clitest.SwViewerSK, "ROSTER_HOME": t.TempDir()}
	run := clitest.StartWatch(t, env, t.TempDir(), "workspace", "show", "--owner", w.OwnerNpub(), "--watch", "--json", "--relay", w.Relay.URL(), "--timeout", "5s")
	first := run.Docs(1, 10*time.Second)[0]
	if first["schema"] != "roster.workspace/v1" || len(first["sections"].([]any)) != 1 {
		t.Fatalf("first document %v", first)
	}
	run.Settled(1, w.Relay)
	w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Beta")
	docs := run.Docs(2, 5*time.Second)
	last := docs[len(docs)-1]
	secs := last["sections"].([]any)
	if len(secs) != 2 || secs[1].(map[string]any)["label"] != "Beta" {
		t.Fatalf("the last document lacks the new section:\n%s", run.Out.String())
	}
	if code := run.Stop(); code != cmdutil.ExitOK {
		t.Fatalf("interrupted watch: exit %d\n%s", code, run.Err.String())
	}
}
