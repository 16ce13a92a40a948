package main

import (
	"testing"

	"github.com/roster-cli/roster/internal/cli/commands"
	"github.com/roster-cli/roster/internal/clitest"
)

// TestMain runs the end-to-end tests with the tree of the commands they run.
func TestMain(m *testing.M) { clitest.Main(m, commands.All) }
