package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	cliroot "github.com/roster-cli/roster/internal/cli/root"
	"github.com/spf13/cobra"
)

// runTree runs args in-process against the whole command tree (whole) or
// the tree runContext builds for them.
func runTree(t *testing.T, whole bool, args ...string) clitest.Result {
	t.Helper()
	var out, errb bytes.Buffer
	home := t.TempDir()
	s := &cmdutil.IoStreams{In: strings.NewReader(""), Out: &out, Err: &errb, Now: time.Now, Dir: t.TempDir(),
		Getenv: func(k string) string {
			if k == "ROSTER_HOME" {
				return home
			}
			return ""
		}}
	a := &cmdutil.Factory{Io: s}
	root := cliroot.NewRootCmdFor(a, commands.All, args)
	if whole {
		root = cliroot.NewRootCmd(a, commands.All)
	}
	code := cliroot.Execute(a, context.Background(), commands.All, root, args)
	// Temporary directories differ between the two runs.
	clean := func(s string) string { return strings.ReplaceAll(s, home, "<home>") }
	return clitest.Result{Out: clean(out.String()), Err: clean(errb.String()), Code: code}
}

// Rule (start-up builds only the group it runs, docs/PERFORMANCE.md
// "Start-up"): a command group built alone behaves exactly as in the whole
// tree: every command's --help, a group's own help, an unknown subcommand,
// a missing argument and an unknown flag print the same and exit the same.
// And every group of the whole tree can be built alone.
func TestACommandGroupBuiltAloneBehavesAsInTheWholeTree(t *testing.T) {
	t.Parallel()
	whole := cliroot.NewRootCmd(&cmdutil.Factory{Io: &cmdutil.IoStreams{Getenv: func(string) string { return "" }}}, commands.All)
	for _, g := range whole.Commands() {
		if g.Name() == "completion" || g.Name() == "help" {
			continue
		}
		if commands.All[g.Name()].New == nil {
			t.Errorf("group %q is not in commandGroups: every command of it builds the whole tree at start-up", g.Name())
		}
	}
	var cases [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		path = append(slices.Clone(path), c.Name())
		cases = append(cases, append(slices.Clone(path), "--help"), append(slices.Clone(path), "--no-such-flag"))
		if c.HasSubCommands() {
			cases = append(cases, slices.Clone(path), append(slices.Clone(path), "no-such-command"))
		}
		for _, sub := range c.Commands() {
			walk(sub, path)
		}
	}
	for _, g := range whole.Commands() {
		if commands.All[g.Name()].New != nil {
			walk(g, nil)
		}
	}
	cases = append(cases, []string{"--json", "--repo", "repo", "version"}, []string{"--timeout", "0s", "repo", "--help"},
		[]string{"--deadline", "1m", "repo", "health", "--help"}, []string{"repo", "helth"}, []string{"repo", "edit", "--timeout", "soon"})
	for _, args := range cases {
		if commands.All.Group(args) == nil {
			t.Fatalf("%v: not built alone", args)
		}
		alone, all := runTree(t, false, args...), runTree(t, true, args...)
		if alone != all {
			t.Errorf("roster %s differs when its group is built alone:\nalone: %+v\nwhole: %+v", strings.Join(args, " "), alone, all)
		}
	}
}

// commandGroup finds the group after the root's flags and their values, and
// leaves everything else (help, completion, unknown names, "--") to the
// whole tree.
func TestCommandGroupSkipsRootFlagsAndDefersEverythingElse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"repo"}, true},
		{[]string{"--relay", "ws://x", "--repo", "repo", "--json", "--timeout", "3s", "--home", "/h", "version"}, true},
		{[]string{"--relay=ws://x", "repo", "edit"}, true},
		{[]string{"--deadline", "1m", "--jq", ".lead", "--json-fields", "repo", "repo"}, true},
		{[]string{"--version"}, false},
		{[]string{}, false},
		{[]string{"help", "repo"}, false},
		{[]string{"completion", "bash"}, false},
		{[]string{"__complete", "repo", ""}, false},
		{[]string{"rep"}, false},
		{[]string{"--", "repo"}, false},
		{[]string{"--repo"}, false},
	} {
		if got := commands.All.Group(c.args) != nil; got != c.want {
			t.Errorf("commandGroup(%q) built alone: %v, want %v", c.args, got, c.want)
		}
	}
}
