package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (one naming rule): an import with no legacy blob to migrate names
// the owner by npub, never by bare hex, and suggests create.
func TestWorkspaceImportWithNothingToMigrateNamesTheOwnerByNpub(t *testing.T) {
	t.Parallel()
	w := newSWWorld(t)
	r := w.as(swOwnerSK, "workspace", "import", "--json")
	e := decodeOut[errorOut](t, r)
	if r.Code != cmdutil.ExitIncomplete || e.Error.Code != "no-legacy" || !strings.Contains(e.Error.Message, w.ownerNpub()) ||
		strings.Contains(e.Error.Message, pubOf(t, swOwnerSK)) || len(e.Error.Commands) == 0 || !strings.Contains(e.Error.Commands[0], "workspace create") {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
}
