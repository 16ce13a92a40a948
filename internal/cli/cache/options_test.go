package cache_test

import (
	"context"
	"io"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cache"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// Rule (flags are parsed without opening the cache): cache info and clear
// take the output flags and --home, nothing else and no argument.
func TestCacheCommandsTakeOnlyTheSharedFlags(t *testing.T) {
	t.Parallel()
	parse := func(build func(*cmdutil.Factory, func(context.Context, *cache.Options) error) *cobra.Command, args ...string) (*cache.Options, *cmdutil.Factory, error) {
		f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
		var got *cache.Options
		cmd := build(f, func(_ context.Context, o *cache.Options) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, f, cmd.ExecuteContext(context.Background())
	}
	for name, build := range map[string]func(*cmdutil.Factory, func(context.Context, *cache.Options) error) *cobra.Command{
		"info": cache.NewCmdInfo, "clear": cache.NewCmdClear} {
		if o, f, err := parse(build, "--json", "--home", "/tmp/h"); err != nil || o == nil || o.Factory != f || !f.Opts.JSON || f.Opts.Home != "/tmp/h" {
			t.Errorf("cache %s: %v, %+v", name, err, o)
		}
		for _, bad := range [][]string{{"extra"}, {"--offline"}, {"--relay", "wss://r.example"}} {
			if o, _, err := parse(build, bad...); err == nil || o != nil {
				t.Errorf("cache %s %v: %v, ran with %+v", name, bad, err, o)
			}
		}
	}
}
