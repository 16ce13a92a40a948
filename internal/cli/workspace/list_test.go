package workspace_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/report"
)

// workspace list shows the workspaces whose projection names you as a
// reader: the owner their own, a grantee the owner's with their role, an
// outsider none; the relay's per-reader delivery decides what each sees.
func TestWorkspaceListNamesTheWorkspacesYouRead(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover")
	w.MustAs(clitest.SwMoverSK, "workspace", "create")

	owner := clitest.DecodeOut[report.WorkspaceList](t, w.MustAs(clitest.SwOwnerSK, "workspace", "list", "--json"))
	if owner.Schema != "roster.workspace.list/v1" || len(owner.Workspaces) != 1 || owner.Workspaces[0].Owner.Npub != w.OwnerNpub() ||
		owner.Workspaces[0].Role != "owner" || owner.Workspaces[0].Revision != w.Stored().Revision {
		t.Fatalf("owner's list %+v", owner)
	}
	mover := clitest.DecodeOut[report.WorkspaceList](t, w.MustAs(clitest.SwMoverSK, "workspace", "list", "--json"))
	if len(mover.Workspaces) != 2 || mover.Workspaces[0].Owner.Npub != w.Npub(clitest.SwMoverSK) || mover.Workspaces[0].Role != "owner" ||
		mover.Workspaces[1].Owner.Npub != w.OwnerNpub() || mover.Workspaces[1].Role != "mover" {
		t.Fatalf("mover's list %+v", mover.Workspaces)
	}
	if !strings.Contains(mover.Workspaces[1].Show, "roster workspace show --owner "+w.OwnerNpub()) {
		t.Fatalf("show command %q", mover.Workspaces[1].Show)
	}
	outsider := clitest.DecodeOut[report.WorkspaceList](t, w.MustAs(clitest.SwViewerSK, "workspace", "list", "--json"))
	if len(outsider.Workspaces) != 0 {
		t.Fatalf("an outsider lists %+v", outsider.Workspaces)
	}
	if text := w.MustAs(clitest.SwViewerSK, "workspace", "list").Out; !strings.Contains(text, "roster workspace create") {
		t.Fatalf("empty list text:\n%s", text)
	}
	// After a revoke, the revoked reader no longer lists it.
	w.MustAs(clitest.SwOwnerSK, "workspace", "revoke", w.Npub(clitest.SwMoverSK))
	if after := clitest.DecodeOut[report.WorkspaceList](t, w.MustAs(clitest.SwMoverSK, "workspace", "list", "--json")); len(after.Workspaces) != 1 {
		t.Fatalf("revoked reader still lists %+v", after.Workspaces)
	}
}
