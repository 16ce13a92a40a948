package main

import (
	"strings"
	"testing"

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
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	home := t.TempDir()
	run := func(args ...string) result {
		env := map[string]string{"ROSTER_SECRET_KEY": pcOwnerSK, "ROSTER_HOME": home}
		return invocation{Env: env}.roster(t, append(args, "--relay", w.relay.URL(), "--timeout", "2s")...)
	}
	live := decodeOut[report.Project](t, run("project", "show", w.coord.String(), "--json"))
	if live.Stale || live.Revision < 1 {
		t.Fatalf("live read %+v", live)
	}
	w.relay.Stop()
	t.Cleanup(func() { _ = w.relay.Start() })
	r := run("project", "show", w.coord.String(), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("outage: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	v := decodeOut[report.Project](t, r)
	if !v.Stale || !strings.Contains(v.StaleReason, w.relay.URL()) || v.Revision != live.Revision ||
		v.Projection.EventID != live.Projection.EventID || v.Complete {
		t.Fatalf("outage view %+v", v)
	}
	if v := decodeOut[report.Project](t, run("project", "show", w.coord.String(), "--offline", "--json")); !v.Stale || v.Revision != live.Revision {
		t.Fatalf("--offline view %+v", v)
	}
	if h := run("project", "show", w.coord.String()); h.Code != cmdutil.ExitOK || !strings.Contains(h.Out, "STALE") {
		t.Fatalf("human outage view: exit %d %s", h.Code, h.Out)
	}
	if r := run("project", "relate", w.coord.String(), pcChanA, "--json"); r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("a change during the outage: exit %d %s", r.Code, r.Out)
	}
	// Without a cache, the outage is still incomplete evidence.
	env := map[string]string{"ROSTER_HOME": t.TempDir()}
	if r := (invocation{Env: env}).roster(t, "project", "show", w.coord.String(), "--relay", w.relay.URL(), "--json", "--timeout", "2s"); r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("outage without a cache: exit %d", r.Code)
	}
}
