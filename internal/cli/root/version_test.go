package root_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/root"
)

// Rule (start-up: no work a command does not need): --version is the
// root's own flag, which no group's command parses, so a root built for a
// group reads no build information; the whole tree (`roster --version`,
// `roster --help`) carries it.
func TestOnlyTheWholeTreeCarriesTheVersion(t *testing.T) {
	t.Parallel()
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{Getenv: func(string) string { return "" }}}
	tree := root.Tree{"repo": {New: group("repo", "edit")}}
	if v := root.NewRootCmdFor(a, tree, []string{"repo", "--offline"}).Version; v != "" {
		t.Errorf("the root built for `roster repo` carries version %q", v)
	}
	if v := root.NewRootCmdFor(a, tree, []string{"--version"}).Version; v == "" {
		t.Error("the whole tree carries no version: `roster --version` would be an unknown flag")
	}
}
