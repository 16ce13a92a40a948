package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	cliroot "github.com/roster-cli/roster/internal/cli/root"
	"github.com/spf13/cobra"
)

// verboseCommands are the commands of the tree that take --verbose.
func verboseCommands(t *testing.T) []string {
	t.Helper()
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{Getenv: func(string) string { return "" }}}
	root := cliroot.NewRootCmd(a, commands.All)
	root.InitDefaultHelpCmd()
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.Flags().Lookup("verbose") != nil || c.InheritedFlags().Lookup("verbose") != nil || c.PersistentFlags().Lookup("verbose") != nil {
			out = append(out, cmdutil.CommandKey(c))
		}
	}
	walk(root)
	slices.Sort(out)
	return out
}

// Rule (a flag is taken only where it does something): every command of
// the tree that takes --verbose prints more with it than without, run here
// on a repository where it has something to say; any other command
// refuses --verbose as an unknown flag (exit 2).
func TestVerboseIsTakenOnlyWhereItPrintsMore(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	w := s.W
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	w.Ok(clitest.Bob, clitest.Alice, 1010, "repo", "accept")
	w.Ok(clitest.Alice, clitest.Alice, 1020, "repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub())

	// In order: each may prepare the repository for itself; the repair
	// damages Alice's announcement, so it is last.
	cases := []struct {
		command string
		as      clitest.Person
		setup   func()
		args    []string
	}{
		{"repo edit", clitest.Alice, nil, []string{"repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--dry-run"}},
		{"repo accept", clitest.Carol, func() {
			w.Ok(clitest.Alice, clitest.Alice, 1100, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
		}, []string{"repo", "accept", "--dry-run"}},
		{"repo leave", clitest.Bob, nil, []string{"repo", "leave", "--dry-run"}},
		{"repo follow-lead", clitest.Bob, func() {
			// Carol joins: Bob's announcement has her start to record.
			w.Ok(clitest.Carol, clitest.Alice, 1200, "repo", "accept")
			w.Ok(clitest.Alice, clitest.Alice, 1210, "repo", "edit", "--acknowledge-maintainer-change", clitest.Carol.Npub())
		}, []string{"repo", "follow-lead", "--dry-run"}},
		{"repo state publish", clitest.Alice, func() {
			s.Clone.Commit("more work")
			s.Clone.Git("push", "-q", s.CloneURL, "main")
		}, []string{"repo", "state", "publish", "--dry-run"}},
		{"repo repair", clitest.Alice, func() { w.RepublishWithoutRoles(clitest.Alice, 1300) }, []string{"repo", "repair", "--dry-run"}},
	}
	var covered []string
	for i, c := range cases {
		covered = append(covered, c.command)
		if c.setup != nil {
			c.setup()
		}
		now := int64(1400 + 10*i)
		plain, verbose := w.Run(c.as, clitest.Alice, now, c.args...), w.Run(c.as, clitest.Alice, now, append(c.args, "--verbose")...)
		if plain.Code != cmdutil.ExitOK || verbose.Code != cmdutil.ExitOK {
			t.Fatalf("roster %s: exit %d, with --verbose %d\n%s%s\n---\n%s%s", c.command, plain.Code, verbose.Code, plain.Out, plain.Err, verbose.Out, verbose.Err)
		}
		if n, v := strings.Count(plain.Out, "\n"), strings.Count(verbose.Out, "\n"); v <= n {
			t.Errorf("roster %s --verbose prints %d lines, without it %d:\n%s\n---\n%s", c.command, v, n, verbose.Out, plain.Out)
		}
	}
	slices.Sort(covered)
	if got := verboseCommands(t); !slices.Equal(got, covered) {
		t.Errorf("commands taking --verbose: %v; those shown to print more with it: %v", got, covered)
	}
	// Elsewhere it is refused, as any flag a command lacks.
	for _, args := range [][]string{{"repo"}, {"repo", "health"}, {"repo", "state"}, {"repo", "graph"}} {
		if r := w.Run(clitest.Alice, clitest.Alice, 1500, append(args, "--verbose")...); r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "--verbose") {
			t.Errorf("roster %v --verbose: exit %d, want %d\n%s", args, r.Code, cmdutil.ExitUsage, r.Err)
		}
	}
}
