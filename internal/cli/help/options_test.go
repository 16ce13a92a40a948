package help_test

import (
	"context"
	"io"
	"slices"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/help"
	"github.com/spf13/cobra"
)

// Rule (arguments are parsed without printing): roster help takes the
// command path or topic as its arguments; version takes only the output
// flags and no argument.
func TestHelpAndVersionParseIntoOptions(t *testing.T) {
	t.Parallel()
	f := func() *cmdutil.Factory {
		return &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
	}
	run := func(cmd *cobra.Command, args ...string) error {
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return cmd.ExecuteContext(context.Background())
	}
	for _, args := range [][]string{nil, {"exit-codes"}, {"repo", "health"}} {
		var got *help.HelpOptions
		cmd := help.NewCmdHelp(f(), &cobra.Command{Use: "roster"}, func(_ context.Context, o *help.HelpOptions) error { got = o; return nil })
		if err := run(cmd, args...); err != nil || got == nil || !slices.Equal(got.Args, args) && len(args) > 0 {
			t.Errorf("help %v: %v, %+v", args, err, got)
		}
	}
	var v *help.VersionOptions
	fv := f()
	if err := run(help.NewCmdVersion(fv, func(_ context.Context, o *help.VersionOptions) error { v = o; return nil }), "--json"); err != nil || v == nil || !fv.Opts.JSON {
		t.Errorf("version --json: %v, %+v", err, v)
	}
	for _, bad := range [][]string{{"extra"}, {"--home", "/h"}} {
		v = nil
		if err := run(help.NewCmdVersion(f(), func(_ context.Context, o *help.VersionOptions) error { v = o; return nil }), bad...); err == nil || v != nil {
			t.Errorf("version %v: %v, ran with %+v", bad, err, v)
		}
	}
}
