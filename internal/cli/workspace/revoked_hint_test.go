package workspace_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// A revoked reader is told that only the owner can grant access again (the
// owner's grant command, marked as theirs to run), never to import: the
// workspace exists. Someone who never read it keeps both possibilities.
func TestWorkspaceRevokedReaderIsPointedAtTheOwnersGrant(t *testing.T) {
	t.Parallel()
	w := rolesWorld(t)
	for _, args := range [][]string{
		{"workspace", "show", "--owner", w.OwnerNpub(), "--json"},
		{"workspace", "move", anyChannel, "--to", "x", "--owner", w.OwnerNpub(), "--json"},
	} {
		r := w.As(clitest.SwForgerSK, args...)
		e := clitest.DecodeOut[clitest.ErrorOut](t, r)
		if r.Code != cmdutil.ExitIncomplete || e.Error.Code != "no-projection" || e.Error.Details["revoked"] != true ||
			!strings.Contains(e.Error.Message, "revoked") || !strings.Contains(e.Error.Message, "Only the owner") {
			t.Fatalf("%v: exit %d %+v", args[:2], r.Code, e.Error)
		}
		if len(e.Error.Commands) != 1 || !strings.HasPrefix(e.Error.Commands[0], "roster workspace grant "+w.Npub(clitest.SwForgerSK)) ||
			!strings.Contains(e.Error.Commands[0], w.OwnerNpub()) || strings.Contains(strings.Join(e.Error.Commands, "\n"), "import") {
			t.Fatalf("%v: commands %q", args[:2], e.Error.Commands)
		}
	}
	r := w.As(clitest.SwOutsiderSK, "workspace", "show", "--owner", w.OwnerNpub(), "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitIncomplete || e.Error.Details["revoked"] != nil || len(e.Error.Commands) != 2 ||
		!strings.Contains(e.Error.Commands[0], "workspace create") || !strings.Contains(e.Error.Commands[1], "workspace grant") {
		t.Fatalf("outsider: exit %d %+v", r.Code, e.Error)
	}
}
