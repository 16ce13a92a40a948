package state_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/cli/repo/tree"
	"github.com/roster-cli/roster/internal/cli/root"
	"github.com/roster-cli/roster/internal/clitest"
)

// repoTree is roster repo alone: these tests run its commands only.
var repoTree = root.Tree{"repo": {New: tree.New, JSONDocs: tree.JSONDocs}}

// TestMain runs the end-to-end tests with the tree of the commands they run.
func TestMain(m *testing.M) { clitest.Main(m, repoTree) }
