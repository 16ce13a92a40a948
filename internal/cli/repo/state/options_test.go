package state_test

import (
	"context"
	"io"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo/state"
)

// Rule (flags are parsed without relays): repo state's --format and
// --no-git-servers and the shared flags land in its options; an unknown
// --format is exit 2 before anything is read.
func TestStateFlagsParseIntoOptions(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) (*state.StateOptions, *cmdutil.Factory, error) {
		f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
		var got *state.StateOptions
		cmd := state.NewCmdState(f, func(_ context.Context, o *state.StateOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, f, cmd.ExecuteContext(context.Background())
	}
	o, f, err := parse("--format", "github", "--no-git-servers", "--relay", "wss://a.example", "--relay", "wss://b.example")
	if err != nil || o.Format != "github" || !o.NoGitServers || len(f.Opts.Relays) != 2 {
		t.Errorf("%v, %+v, %+v", err, o, f.Opts)
	}
	if o, _, err := parse("--json"); err != nil || o.Format != "text" || o.NoGitServers {
		t.Errorf("--json: %v, %+v", err, o)
	}
	if o, _, err := parse("--format", "yaml"); cmdutil.AsExitError(err).Code != cmdutil.ExitUsage || o != nil {
		t.Errorf("--format yaml: %v, ran with %+v", err, o)
	}
}

// Rule: repo state publish's --force and --dry-run land in its options;
// --offline is refused before anything is read (a publish needs every
// relay's answer).
func TestStatePublishFlagsParseIntoOptions(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) (*state.PublishOptions, error) {
		f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
		var got *state.PublishOptions
		cmd := state.NewCmdPublish(f, func(_ context.Context, o *state.PublishOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, cmd.ExecuteContext(context.Background())
	}
	for _, tc := range []struct {
		args          []string
		force, dryRun bool
	}{{nil, false, false}, {[]string{"--force"}, true, false}, {[]string{"--dry-run", "--verbose"}, false, true}, {[]string{"--force", "--dry-run"}, true, true}} {
		if o, err := parse(tc.args...); err != nil || o.Force != tc.force || o.DryRun != tc.dryRun {
			t.Errorf("publish %v: %v, %+v", tc.args, err, o)
		}
	}
	if o, err := parse("--offline"); cmdutil.AsExitError(err).Code != cmdutil.ExitUsage || o != nil {
		t.Errorf("publish --offline: %v, ran with %+v", err, o)
	}
}
