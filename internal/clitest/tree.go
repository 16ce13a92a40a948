// Package clitest is the end-to-end tests' harness: it runs a command tree
// in-process (Invocation.Roster) against dev relays and real Git
// repositories, and builds the worlds, homes and people the tests share.
// It imports no noun: each test package gives it the tree of its own
// commands (Main), so a noun's tests build without the other nouns. Only
// tests import it.
package clitest

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/root"
)

// Tree is the command tree this test binary runs (Main).
var tree root.Tree

// Main runs the tests of m with t as the command tree. It is the test
// package's TestMain. When RunAsRoster is set, this test binary is roster
// itself: Git runs the hooks roster installed (which call os.Executable,
// this binary), and they dispatch into the real command tree here instead
// of running the tests. No separate build, and the hooks run exactly the
// code under test.
func Main(m *testing.M, t root.Tree) {
	tree = t
	if os.Getenv(RunAsRoster) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := root.RunContext(ctx, t, os.Args[1:], cmdutil.NewSystemIO(), cmdutil.Seams{})
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// Tree is the command tree this test binary runs, for a test that builds
// its root or runs it itself.
func Tree() root.Tree { return tree }
