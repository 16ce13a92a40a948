package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// Rule (every pubkey argument may be a NIP-05 name): workspace grant and
// revoke look the name up, show the key it resolved to before anything is
// sent and in nip05_lookups, and act on that key; a name the domain does
// not list is exit 4 with nothing sent.
func TestWorkspaceGrantAndRevokeAcceptANIP05Name(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	w.PublishLegacy()
	w.MustAs(clitest.SwOwnerSK, "workspace", "import")
	viewer := clitest.PubOf(t, clitest.SwViewerSK)
	client, lookups := clitest.Nip05Server(t, map[string]string{"viewer": viewer})
	w.Http = client

	r := w.MustAs(clitest.SwOwnerSK, "workspace", "grant", "viewer@example.com", "--role", "viewer")
	looked := "looked up: viewer@example.com is " + w.Npub(clitest.SwViewerSK) + ": its domain lists that key for the name\n"
	if !strings.HasPrefix(r.Out, looked) {
		t.Fatalf("the key is not shown first:\n%s", r.Out)
	}
	if v := clitest.DecodeOut[report.Workspace](t, w.MustAs(clitest.SwViewerSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json")); v.You.Role != "viewer" {
		t.Fatalf("the grant did not reach the looked-up key: %+v", v.You)
	}

	out := clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwOwnerSK, "workspace", "revoke", "Viewer@Example.com", "--json"))
	if len(out.NIP05Lookups) != 1 || out.NIP05Lookups[0].Name != "viewer@example.com" || out.NIP05Lookups[0].Npub != w.Npub(clitest.SwViewerSK) {
		t.Fatalf("nip05_lookups %+v", out.NIP05Lookups)
	}
	for _, p := range out.Workspace.Readers {
		if p.Npub == w.Npub(clitest.SwViewerSK) {
			t.Fatalf("still a reader after the revoke: %+v", out.Workspace.Readers)
		}
	}

	before := w.Stored().Revision
	r = w.As(clitest.SwOwnerSK, "workspace", "grant", "nobody@example.com")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "nobody@example.com") || !strings.Contains(r.Err, "nothing was published") {
		t.Fatalf("unknown name: exit %d %s", r.Code, r.Err)
	}
	if w.Stored().Revision != before {
		t.Fatal("a failed lookup sent something")
	}
	if n := lookups.Load(); n != 3 { // a write asks the domain every time
		t.Fatalf("%d lookups, want 3", n)
	}
}

// Rule: project list --owner takes a NIP-05 name; a read reuses the
// cached answer (no second lookup) and shows the key it used.
func TestProjectListOwnerAcceptsANIP05Name(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	client, lookups := clitest.Nip05Server(t, map[string]string{"owner": clitest.PubOf(t, clitest.PcOwnerSK)})
	w.Http = client
	home := t.TempDir()
	run := func(args ...string) clitest.Result {
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcStrangerSK, "ROSTER_HOME": home}
		return clitest.Invocation{Env: env, Seams: cmdutil.Seams{Http: client}}.Roster(t, append(args, "--relay", w.Relay.URL(), "--timeout", "5s")...)
	}
	out := clitest.DecodeOut[report.ProjectList](t, run("project", "list", "--owner", "owner@example.com", "--json"))
	if len(out.Projects) != 1 || out.Owner == nil || *out.Owner != clitest.DemoNpubOf(t, clitest.PcOwnerSK) ||
		len(out.NIP05Lookups) != 1 || out.NIP05Lookups[0].Npub != clitest.DemoNpubOf(t, clitest.PcOwnerSK) {
		t.Fatalf("list %+v", out)
	}
	r := run("project", "list", "--owner", "owner@example.com")
	if r.Code != cmdutil.ExitOK || !strings.HasPrefix(r.Out, "looked up: owner@example.com is "+clitest.DemoNpubOf(t, clitest.PcOwnerSK)) {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
	if n := lookups.Load(); n != 1 {
		t.Fatalf("%d lookups, want 1 (the second read uses the cache)", n)
	}
	if r := run("project", "list", "--owner", "nobody@example.com"); r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "nobody@example.com") {
		t.Fatalf("unknown name: exit %d %s", r.Code, r.Err)
	}
}
