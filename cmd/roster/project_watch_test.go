package main

import (
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (--watch): `project show --watch --json` prints the project again
// when the relay signs a new Project State (a channel related from another
// home), one document per line.
func TestProjectShowWatchPrintsANewRevision(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	env := map[string]string{"ROSTER_SECRET_KEY": pcStrangerSK, "ROSTER_HOME": t.TempDir()}
	run := startWatch(t, env, t.TempDir(), "project", "show", w.coord.String(), "--watch", "--json", "--relay", w.relay.URL(), "--timeout", "5s")
	first := run.docs(1, 10*time.Second)[0]
	if first["schema"] != "roster.project/v2" || first["revision"] != float64(1) {
		t.Fatalf("first document %v", first)
	}
	run.settled(1, w.relay)
	if r := w.as(pcOwnerSK, "project", "relate", w.coord.String(), pcChanA); r.Code != cmdutil.ExitOK {
		t.Fatalf("relate: exit %d %s", r.Code, r.Err)
	}
	docs := run.docs(2, 5*time.Second)
	last := docs[len(docs)-1]
	if last["revision"] != float64(2) || len(last["related_channels"].([]any)) != 1 {
		t.Fatalf("the last document is not the new revision:\n%s", run.out.String())
	}
	if code := run.stop(); code != cmdutil.ExitOK {
		t.Fatalf("interrupted watch: exit %d\n%s", code, run.err.String())
	}
}
