package checkevent_test

import (
	"context"
	"io"
	"slices"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo/checkevent"
)

// Rule (flags are parsed without relays): check-event's references,
// --stdin and --format land in its options (stdin is read only when it
// runs); --format github with --json, or a format it does not know, is
// exit 2 before anything is read.
func TestCheckEventFlagsParseIntoOptions(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) (*checkevent.CheckEventOptions, *cmdutil.Factory, error) {
		f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
		var got *checkevent.CheckEventOptions
		cmd := checkevent.NewCmdCheckEvent(f, func(_ context.Context, o *checkevent.CheckEventOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, f, cmd.ExecuteContext(context.Background())
	}
	o, f, err := parse("note1a", "nevent1b", "--stdin", "--format", "github", "--repo", "nostr://npub1x/r")
	if err != nil || !slices.Equal(o.Args, []string{"note1a", "nevent1b"}) || !o.Stdin || o.Format != "github" || f.Opts.Repo != "nostr://npub1x/r" {
		t.Errorf("%v, %+v", err, o)
	}
	if o, f, err := parse("--stdin", "--json"); err != nil || len(o.Args) != 0 || !o.Stdin || o.Format != "text" || !f.Opts.JSON {
		t.Errorf("--stdin --json: %v, %+v", err, o)
	}
	for _, bad := range [][]string{{"note1a", "--format", "github", "--json"}, {"note1a", "--format", "yaml"}} {
		if o, _, err := parse(bad...); cmdutil.AsExitError(err).Code != cmdutil.ExitUsage || o != nil {
			t.Errorf("%v: %v, ran with %+v", bad, err, o)
		}
	}
}
