package root_test

import (
	"slices"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/root"
	"github.com/spf13/cobra"
)

// Rule (shared flags may stand before the command's name, as installed
// hook files call `roster --offline hooks run ...`): they move right after
// the command's words, in the order given; anything else stays put.
func TestLeadingSharedFlagsMoveAfterTheCommandWords(t *testing.T) {
	t.Parallel()
	tree := root.NewRootCmd(&cmdutil.Factory{Io: &cmdutil.IoStreams{Getenv: func(string) string { return "" }}}, root.Tree{
		"repo": {New: group("repo", "edit")}, "hooks": {New: group("hooks", "run")}})
	for _, c := range []struct{ in, want []string }{
		{[]string{"--relay", "wss://a", "--offline", "repo", "edit", "--relay", "wss://b", "--", "x"},
			[]string{"repo", "edit", "--relay", "wss://a", "--offline", "--relay", "wss://b", "--", "x"}},
		{[]string{"--timeout=5s", "hooks", "run", "pre-push", "--", "origin"}, []string{"hooks", "run", "--timeout=5s", "pre-push", "--", "origin"}},
		{[]string{"--json"}, []string{"--json"}},
		{[]string{"--no-such-flag", "repo"}, []string{"--no-such-flag", "repo"}},
		{[]string{"repo", "--json"}, []string{"repo", "--json"}},
	} {
		if got := root.HoistLeadingFlags(tree, c.in); !slices.Equal(got, c.want) {
			t.Errorf("%v: %v, want %v", c.in, got, c.want)
		}
	}
}

// group is a command group named name with the subcommands subs, which do
// nothing: hoisting only reads the command words.
func group(name string, subs ...string) func(*cmdutil.Factory) *cobra.Command {
	return func(*cmdutil.Factory) *cobra.Command {
		c := &cobra.Command{Use: name, Run: func(*cobra.Command, []string) {}}
		for _, s := range subs {
			c.AddCommand(&cobra.Command{Use: s, Run: func(*cobra.Command, []string) {}})
		}
		return c
	}
}
