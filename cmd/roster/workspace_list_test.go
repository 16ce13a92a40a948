package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/report"
)

// workspace list shows the workspaces whose projection names you as a
// reader: the owner their own, a grantee the owner's with their role, an
// outsider none; the relay's per-reader delivery decides what each sees.
func TestWorkspaceListNamesTheWorkspacesYouRead(t *testing.T) {
	t.Parallel()
	w := importedWorld(t)
	w.mustAs(swOwnerSK, "workspace", "grant", w.npub(swMoverSK), "--role", "mover")
	w.mustAs(swMoverSK, "workspace", "create")

	owner := decodeOut[report.WorkspaceList](t, w.mustAs(swOwnerSK, "workspace", "list", "--json"))
	if owner.Schema != "roster.workspace.list/v1" || len(owner.Workspaces) != 1 || owner.Workspaces[0].Owner.Npub != w.ownerNpub() ||
		owner.Workspaces[0].Role != "owner" || owner.Workspaces[0].Revision != w.stored().Revision {
		t.Fatalf("owner's list %+v", owner)
	}
	mover := decodeOut[report.WorkspaceList](t, w.mustAs(swMoverSK, "workspace", "list", "--json"))
	if len(mover.Workspaces) != 2 || mover.Workspaces[0].Owner.Npub != w.npub(swMoverSK) || mover.Workspaces[0].Role != "owner" ||
		mover.Workspaces[1].Owner.Npub != w.ownerNpub() || mover.Workspaces[1].Role != "mover" {
		t.Fatalf("mover's list %+v", mover.Workspaces)
	}
	if !strings.Contains(mover.Workspaces[1].Show, "roster workspace show --owner "+w.ownerNpub()) {
		t.Fatalf("show command %q", mover.Workspaces[1].Show)
	}
	outsider := decodeOut[report.WorkspaceList](t, w.mustAs(swViewerSK, "workspace", "list", "--json"))
	if len(outsider.Workspaces) != 0 {
		t.Fatalf("an outsider lists %+v", outsider.Workspaces)
	}
	if text := w.mustAs(swViewerSK, "workspace", "list").Out; !strings.Contains(text, "roster workspace create") {
		t.Fatalf("empty list text:\n%s", text)
	}
	// After a revoke, the revoked reader no longer lists it.
	w.mustAs(swOwnerSK, "workspace", "revoke", w.npub(swMoverSK))
	if after := decodeOut[report.WorkspaceList](t, w.mustAs(swMoverSK, "workspace", "list", "--json")); len(after.Workspaces) != 1 {
		t.Fatalf("revoked reader still lists %+v", after.Workspaces)
	}
}
