package workspace_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (one naming rule): an import with no legacy blob to migrate names
// the owner by npub, never by bare hex, and suggests create.
func TestWorkspaceImportWithNothingToMigrateNamesTheOwnerByNpub(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	r := w.As(clitest.SwOwnerSK, "workspace", "import", "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitIncomplete || e.Error.Code != "no-legacy" || !strings.Contains(e.Error.Message, w.OwnerNpub()) ||
		strings.Contains(e.Error.Message, clitest.PubOf(t, clitest.SwOwnerSK)) || len(e.Error.Commands) == 0 || !strings.Contains(e.Error.Commands[0], "workspace create") {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
}
