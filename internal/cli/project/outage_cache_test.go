package project_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// As `workspace show` does ("during relay outage, the last verified cache
// may render but is stale and cannot become a replacement write"), `project
// show` falls back to the last verified projection cached from the relay
// that does not answer, marked stale; a change is still refused, and a relay
// that answers without the project is never overridden by the cache.
func TestProjectShowDuringAnOutageShowsTheStaleCache(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	home := t.TempDir()
	run := func(args ...string) clitest.Result {
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": home}
		return clitest.Invocation{Env: env}.Roster(t, append(args, "--relay", w.Relay.URL(), "--timeout", "2s")...)
	}
	live := clitest.DecodeOut[report.Project](t, run("project", "show", w.Coord.String(), "--json"))
	if live.Stale || live.Revision < 1 {
		t.Fatalf("live read %+v", live)
	}
	w.Relay.Stop()
	t.Cleanup(func() { _ = w.Relay.Start() })
	r := run("project", "show", w.Coord.String(), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("outage: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	v := clitest.DecodeOut[report.Project](t, r)
	if !v.Stale || !strings.Contains(v.StaleReason, w.Relay.URL()) || v.Revision != live.Revision ||
		v.Projection.EventID != live.Projection.EventID || v.Complete {
		t.Fatalf("outage view %+v", v)
	}
	if v := clitest.DecodeOut[report.Project](t, run("project", "show", w.Coord.String(), "--offline", "--json")); !v.Stale || v.Revision != live.Revision {
		t.Fatalf("--offline view %+v", v)
	}
	if h := run("project", "show", w.Coord.String()); h.Code != cmdutil.ExitOK || !strings.Contains(h.Out, "STALE") {
		t.Fatalf("human outage view: exit %d %s", h.Code, h.Out)
	}
	if r := run("project", "relate", w.Coord.String(), clitest.PcChanA, "--json"); r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("a change during the outage: exit %d %s", r.Code, r.Out)
	}
	// Without a cache, the outage is still incomplete evidence.
	env := map[string]string{"ROSTER_HOME": t.TempDir()}
	if r := (clitest.Invocation{Env: env}).Roster(t, "project", "show", w.Coord.String(), "--relay", w.Relay.URL(), "--json", "--timeout", "2s"); r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("outage without a cache: exit %d", r.Code)
	}
}
