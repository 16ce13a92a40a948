package main

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/dev"
	"github.com/roster-cli/roster/report"
)

// The demo seeds everything the README tour reads: every tour command runs
// against a freshly seeded relay with the authorities `roster dev relay`
// runs, and exits 0 with the seeded state.
func TestDemoSeedServesEveryTourCommand(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{Authorities: dev.DevRelayAuthorities()})[0]
	demo, cleanup, err := dev.SeedDemo(relay, time.Now(), func(msg string) { t.Fatal(msg) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	as := func(name string, args ...string) clitest.Result {
		t.Helper()
		env := map[string]string{"ROSTER_SECRET_KEY": devrelay.DemoKey(name), "ROSTER_HOME": t.TempDir()}
		r := clitest.Invocation{Env: env, Dir: t.TempDir()}.Roster(t, append(args, "--relay", relay.URL(), "--timeout", "5s")...)
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("roster %v as %s: exit %d\nout: %s\nerr: %s", args, name, r.Code, r.Out, r.Err)
		}
		return r
	}

	ws := clitest.DecodeOut[report.Workspace](t, as("alice", "workspace", "show", "--json"))
	if len(ws.Sections) != 2 || ws.Sections[0].Label != "Maintainers" || ws.Sections[1].Label != "Reading" {
		t.Errorf("workspace sections %+v", ws.Sections)
	}
	if text := as("bob", "workspace", "show", "--owner", demo.Workspace.Owner).Out; !strings.Contains(text, "Maintainers") {
		t.Errorf("bob, granted mover, does not see the sections:\n%s", text)
	}

	pj := clitest.DecodeOut[report.Project](t, as("carol", "project", "show", demo.Project.Naddr, "--json"))
	if pj.Coordinate != demo.Project.Coordinate || pj.HomeChannel == nil || *pj.HomeChannel != devrelay.DemoHomeChannel || len(pj.RelatedChannels) != 1 {
		t.Errorf("project %+v", pj)
	}

	g := clitest.DecodeOut[report.Group](t, as("carol", "group", "show", demo.Group.ID, "--json"))
	if len(g.Relays) != 1 || !g.Relays[0].Live || len(g.Relays[0].Group.Admins) != 2 {
		t.Errorf("group %+v", g.Relays)
	}

	ref := relay.URL() + "'" + demo.Group.ID
	if j := clitest.DecodeOut[report.GroupRequest](t, as("dave", "group", "join", ref, "--save", "--json")); j.Outcome != "joined" || j.List.Status != "saved" {
		t.Errorf("join %+v", j)
	}
	if m := clitest.DecodeOut[report.GroupMembers](t, as("dave", "group", "members", ref, "--json")); len(m.Relays) != 1 || len(m.Relays[0].Members) != 5 {
		t.Errorf("members %+v", m.Relays)
	}

	preview := as("alice", "repo", "edit", "--add-maintainer", clitest.DemoNpub(t, "erin"), "--dry-run", "--repo", demo.Naddr)
	if !strings.Contains(preview.Out, "dry run") && !strings.Contains(preview.Out, "nothing was published") {
		t.Errorf("the preview says nothing of a dry run:\n%s", preview.Out)
	}

	// The demo's people have profiles: roster shows them by name, the
	// graph draws them, and dave, removed, is in the history.
	read := as("alice", "repo", "--repo", demo.Naddr)
	for _, name := range []string{"alice (npub1", "bob (npub1", "carol (npub1", "erin (npub1", "(you)"} {
		if !strings.Contains(read.Out, name) {
			t.Errorf("roster repo lacks %q:\n%s", name, read.Out)
		}
	}
	if tree := as("alice", "repo", "graph", "--history", "--repo", demo.Naddr).Out; !strings.Contains(tree, "m dave (npub1") || !strings.Contains(tree, "[ended]") {
		t.Errorf("the graph does not show dave's ended listing:\n%s", tree)
	}
	if hist := as("alice", "repo", "history", "--repo", demo.Naddr).Out; !strings.Contains(hist, "dave (npub1") {
		t.Errorf("the history does not show dave:\n%s", hist)
	}
	// The demo's refused change: bob, a co-maintainer, cannot add erin.
	env := map[string]string{"ROSTER_SECRET_KEY": devrelay.DemoKey("bob"), "ROSTER_HOME": t.TempDir()}
	before := relay.EventCount()
	r := clitest.Invocation{Env: env, Dir: t.TempDir()}.Roster(t, "repo", "edit", "--add-maintainer", clitest.DemoNpub(t, "erin"), "--repo", demo.Naddr, "--relay", relay.URL(), "--timeout", "5s")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "only the resolved lead should add maintainers") || relay.EventCount() != before {
		t.Errorf("bob's add: exit %d (want 3), relay events %d -> %d:\n%s", r.Code, before, relay.EventCount(), r.Err)
	}
}
