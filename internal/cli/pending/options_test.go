package pending_test

import (
	"context"
	"io"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/pending"
)

// Rule (arguments are parsed without the journal): roster pending lists,
// resume and discard take exactly one write id, and the flags each takes
// are its own (--offline only for the list).
func TestPendingCommandsParseIntoOptions(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) (*pending.Options, *cmdutil.Factory, error) {
		f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
		var got *pending.Options
		cmd := pending.NewCmdPending(f, pending.Deps{}, func(_ context.Context, o *pending.Options) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, f, cmd.ExecuteContext(context.Background())
	}
	for _, tc := range []struct {
		args     []string
		verb, id string
	}{{[]string{"--offline"}, "list", ""}, {[]string{"resume", "3f2a9c81d0e4", "--timeout", "5s"}, "resume", "3f2a9c81d0e4"},
		{[]string{"discard", "3f2a9c81d0e4", "--json"}, "discard", "3f2a9c81d0e4"}} {
		if o, _, err := parse(tc.args...); err != nil || o.Verb != tc.verb || o.ID != tc.id {
			t.Errorf("pending %v: %v, %+v", tc.args, err, o)
		}
	}
	for _, bad := range [][]string{{"resume"}, {"discard", "a", "b"}, {"discard", "a", "--timeout", "5s"}, {"resume", "a", "--offline"}, {"--relay", "wss://r.example"}} {
		if o, _, err := parse(bad...); err == nil || o != nil {
			t.Errorf("pending %v: %v, ran with %+v", bad, err, o)
		}
	}
}
