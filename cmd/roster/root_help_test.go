package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	cliroot "github.com/roster-cli/roster/internal/cli/root"
	"github.com/spf13/cobra"
)

// Every command's --help says what it does and shows an example, so a user
// never has to leave the terminal to learn how to call it. Cobra's own
// completion command is included: it is part of the contract.
func TestEveryCommandHelpHasShortAndExample(t *testing.T) {
	t.Parallel()
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{Getenv: func(string) string { return "" }}}
	root := cliroot.NewRootCmd(a, commands.All)
	root.InitDefaultCompletionCmd()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		if strings.TrimSpace(c.Short) == "" {
			t.Errorf("%s: no Short description", c.CommandPath())
		}
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s: no Example", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// `roster completion` is cobra's default command (docs/architecture.md lists
// it); it must stay enabled and print a script for each shell.
func TestCompletionPrintsAScriptForEachShell(t *testing.T) {
	t.Parallel()
	for shell, marker := range map[string]string{"bash": "bash completion", "zsh": "#compdef roster", "fish": "complete -c roster", "powershell": "Register-ArgumentCompleter"} {
		r := clitest.Invocation{Env: map[string]string{}}.Roster(t, "completion", shell)
		if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, marker) {
			t.Errorf("completion %s: exit %d, stdout lacks %q (stderr %q)", shell, r.Code, marker, r.Err)
		}
	}
}

// The README tour covers every command group, and every `repo` subcommand,
// so a new user sees all of roster in one screen.
func TestReadmeTourCoversEveryCommandGroup(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	a := &cmdutil.Factory{Io: &cmdutil.IoStreams{Getenv: func(string) string { return "" }}}
	root := cliroot.NewRootCmd(a, commands.All)
	var paths []string
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "version" {
			continue
		}
		paths = append(paths, c.CommandPath())
		if c.Name() == "repo" || c.Name() == "dev" || c.Name() == "cache" {
			for _, sub := range c.Commands() {
				paths = append(paths, sub.CommandPath())
			}
		}
	}
	for _, p := range paths {
		if !strings.Contains(string(readme), p) {
			t.Errorf("README.md does not mention %q", p)
		}
	}
}
