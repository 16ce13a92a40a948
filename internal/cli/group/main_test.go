package group_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/cli/group"
	"github.com/roster-cli/roster/internal/cli/root"
	"github.com/roster-cli/roster/internal/clitest"
)

// TestMain runs the end-to-end tests with the tree of the commands they run.
func TestMain(m *testing.M) { clitest.Main(m, root.Tree{"group": {New: group.NewGroupCmd}}) }
