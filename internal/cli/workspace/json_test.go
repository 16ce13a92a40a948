package workspace_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// Rule (every workspace command has --json): show, import, grant, revoke,
// move and section add|rename|reorder|remove. The other end-to-end tests
// use --json for show, import, revoke, move and section remove; this one
// covers grant and section add, rename and reorder: each prints
// roster.workspace.change/v1 for its own kind, one revision on, and the
// workspace as read back from the relay.
func TestWorkspaceGrantAndSectionCommandsPrintJSON(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	first := sectionstest.Load(t).Legacy(t).Name
	check := func(what string, out report.WorkspaceChange, kind int) report.WorkspaceChange {
		t.Helper()
		if out.Schema != "roster.workspace.change/v1" || out.Kind != kind || out.EventID == "" || out.ActionID == "" ||
			out.CommandHash == "" || out.Revision != out.RevisionBefore+1 || out.Workspace.Revision != out.Revision {
			t.Fatalf("%s --json: %+v", what, out)
		}
		if st := w.Stored(); st.Revision != out.Revision {
			t.Fatalf("%s: relay at revision %d, JSON says %d", what, st.Revision, out.Revision)
		}
		return out
	}
	g := check("grant", clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover", "--json")), sections.KindGrant)
	found := false
	for _, r := range g.Workspace.Readers {
		found = found || (r.Pubkey == clitest.PubOf(t, clitest.SwMoverSK) && r.Role == "mover")
	}
	if !found {
		t.Fatalf("grant: mover not among readers %+v", g.Workspace.Readers)
	}
	a := check("section add", clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Beta", "--json")), sections.KindManage)
	if len(a.Workspace.Sections) != 2 || a.Workspace.Sections[1].Label != "Beta" {
		t.Fatalf("section add: %+v", a.Workspace.Sections)
	}
	rn := check("section rename", clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwOwnerSK, "workspace", "section", "rename", "Beta", "Gamma", "--json")), sections.KindManage)
	if rn.Workspace.Sections[1].Label != "Gamma" {
		t.Fatalf("section rename: %+v", rn.Workspace.Sections)
	}
	ro := check("section reorder", clitest.DecodeOut[report.WorkspaceChange](t, w.MustAs(clitest.SwOwnerSK, "workspace", "section", "reorder", "Gamma", first, "--json")), sections.KindManage)
	if ro.Workspace.Sections[0].Label != "Gamma" || ro.Workspace.Sections[1].Label != first || ro.Workspace.LayoutRevision != rn.Workspace.LayoutRevision+1 {
		t.Fatalf("section reorder: %+v layout %d -> %d", ro.Workspace.Sections, rn.Workspace.LayoutRevision, ro.Workspace.LayoutRevision)
	}
}
