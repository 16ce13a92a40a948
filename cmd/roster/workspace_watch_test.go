package main

import (
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (--watch): `workspace show --watch --json` follows the projection
// over a subscription authenticated as the reader (the relay demands
// NIP-42) and prints the workspace again when the owner adds a section
// from another home.
func TestWorkspaceShowWatchPrintsANewSection(t *testing.T) {
	t.Parallel()
	w := newSWWorld(t)
	w.publishLegacy()
	w.mustAs(swOwnerSK, "workspace", "import")
	w.mustAs(swOwnerSK, "workspace", "grant", w.npub(swViewerSK), "--role", "viewer")
	env := map[string]string{"ROSTER_SECRET_KEY": swViewerSK, "ROSTER_HOME": t.TempDir()}
	run := startWatch(t, env, t.TempDir(), "workspace", "show", "--owner", w.ownerNpub(), "--watch", "--json", "--relay", w.relay.URL(), "--timeout", "5s")
	first := run.docs(1, 10*time.Second)[0]
	if first["schema"] != "roster.workspace/v1" || len(first["sections"].([]any)) != 1 {
		t.Fatalf("first document %v", first)
	}
	run.settled(1, w.relay)
	w.mustAs(swOwnerSK, "workspace", "section", "add", "Beta")
	docs := run.docs(2, 5*time.Second)
	last := docs[len(docs)-1]
	secs := last["sections"].([]any)
	if len(secs) != 2 || secs[1].(map[string]any)["label"] != "Beta" {
		t.Fatalf("the last document lacks the new section:\n%s", run.out.String())
	}
	if code := run.stop(); code != cmdutil.ExitOK {
		t.Fatalf("interrupted watch: exit %d\n%s", code, run.err.String())
	}
}
