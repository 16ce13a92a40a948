package hooks_test

import (
	"context"
	"io"
	"slices"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/hooks"
	"github.com/spf13/cobra"
)

// Rule (flags are parsed without a checkout): install, uninstall and
// status take the output, relay and home flags and no argument; run takes
// the Git hook and Git's arguments, and a hook roster does not run is exit
// 2 before anything is read.
func TestHooksCommandsParseIntoOptions(t *testing.T) {
	t.Parallel()
	type build = func(*cmdutil.Factory, func(context.Context, *hooks.Options) error) *cobra.Command
	parse := func(b build, args ...string) (*hooks.Options, *cmdutil.Factory, error) {
		f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
		var got *hooks.Options
		cmd := b(f, func(_ context.Context, o *hooks.Options) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, f, cmd.ExecuteContext(context.Background())
	}
	for verb, b := range map[string]build{"install": hooks.NewCmdInstall, "uninstall": hooks.NewCmdUninstall, "status": hooks.NewCmdStatus} {
		o, f, err := parse(b, "--relay", "wss://r.example", "--home", "/h", "--json")
		if err != nil || o.Verb != verb || !slices.Equal(f.Opts.Relays, []string{"wss://r.example"}) || f.Opts.Home != "/h" || !f.Opts.JSON {
			t.Errorf("hooks %s: %v, %+v", verb, err, o)
		}
		for _, bad := range [][]string{{"extra"}, {"--repo", "origin"}} {
			if o, _, err := parse(b, bad...); err == nil || o != nil {
				t.Errorf("hooks %s %v: %v, ran with %+v", verb, bad, err, o)
			}
		}
	}
	o, f, err := parse(hooks.NewCmdRun, "--offline", "pre-push", "--", "origin", "nostr://npub1x/r")
	if err != nil || o.Hook != "pre-push" || !slices.Equal(o.HookArgs, []string{"origin", "nostr://npub1x/r"}) || !f.Opts.Offline {
		t.Errorf("hooks run pre-push: %v, %+v", err, o)
	}
	for _, bad := range [][]string{nil, {"pre-commit"}} {
		if o, _, err := parse(hooks.NewCmdRun, bad...); err == nil || o != nil {
			t.Errorf("hooks run %v: %v, ran with %+v", bad, err, o)
		}
	}
	if _, _, err := parse(hooks.NewCmdRun, "pre-commit"); cmdutil.AsExitError(err).Code != cmdutil.ExitUsage {
		t.Errorf("hooks run pre-commit: %v, want exit 2", err)
	}
}
