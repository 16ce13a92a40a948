package pending_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/cli/clitest"
	"github.com/roster-cli/roster/internal/cli/commands"
)

// TestMain runs the end-to-end tests with the tree of the commands they run.
func TestMain(m *testing.M) { clitest.Main(m, commands.All) }
