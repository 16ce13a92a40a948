package project_test

import (
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (--watch): `project show --watch --json` prints the project again
// when the relay signs a new Project State (a channel related from another
// home), one document per line.
func TestProjectShowWatchPrintsANewRevision(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcStrangerSK, "ROSTER_HOME": t.TempDir()}
	run := clitest.StartWatch(t, env, t.TempDir(), "project", "show", w.Coord.String(), "--watch", "--json", "--relay", w.Relay.URL(), "--timeout", "5s")
	first := run.Docs(1, 10*time.Second)[0]
	if first["schema"] != "roster.project/v2" || first["revision"] != float64(1) {
		t.Fatalf("first document %v", first)
	}
	run.Settled(1, w.Relay)
	if r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanA); r.Code != cmdutil.ExitOK {
		t.Fatalf("relate: exit %d %s", r.Code, r.Err)
	}
	docs := run.Docs(2, 5*time.Second)
	last := docs[len(docs)-1]
	if last["revision"] != float64(2) || len(last["related_channels"].([]any)) != 1 {
		t.Fatalf("the last document is not the new revision:\n%s", run.Out.String())
	}
	if code := run.Stop(); code != cmdutil.ExitOK {
		t.Fatalf("interrupted watch: exit %d\n%s", code, run.Err.String())
	}
}
