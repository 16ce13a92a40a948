package dev_test

import (
	"context"
	"io"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/dev"
)

// Rule (flags are parsed without listening): dev relay's --addr, --seed
// and --require-auth land in its options, the address defaulting to
// 127.0.0.1:7777; a seed other than demo is exit 2 before anything
// listens.
func TestDevRelayFlagsParseIntoOptions(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) (*dev.RelayOptions, *cmdutil.Factory, error) {
		f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
		var got *dev.RelayOptions
		cmd := dev.NewCmdRelay(f, func(_ context.Context, o *dev.RelayOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, f, cmd.ExecuteContext(context.Background())
	}
	for _, tc := range []struct {
		args       []string
		addr, seed string
		auth, json bool
	}{{nil, "127.0.0.1:7777", "", false, false}, {[]string{"--addr", "127.0.0.1:0", "--seed", "demo", "--json"}, "127.0.0.1:0", "demo", false, true},
		{[]string{"--require-auth"}, "127.0.0.1:7777", "", true, false}} {
		o, f, err := parse(tc.args...)
		if err != nil || o.Addr != tc.addr || o.Seed != tc.seed || o.RequireAuth != tc.auth || f.Opts.JSON != tc.json {
			t.Errorf("dev relay %v: %v, %+v", tc.args, err, o)
		}
	}
	if o, _, err := parse("--seed", "full"); cmdutil.AsExitError(err).Code != cmdutil.ExitUsage || o != nil {
		t.Errorf("--seed full: %v, ran with %+v", err, o)
	}
	if o, _, err := parse("--relay", "wss://r.example"); err == nil || o != nil {
		t.Errorf("--relay: %v, ran with %+v", err, o)
	}
}
