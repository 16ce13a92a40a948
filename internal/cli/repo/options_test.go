package repo_test

import (
	"context"
	"io"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo"
)

// Rule (flags are parsed without relays): roster repo's --full and the
// shared flags land in its options; a word after it is no argument it
// takes, and --verbose, which a read has nothing more to say with, is no
// flag it takes.
func TestRepoFlagsParseIntoOptions(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) (*repo.RepoOptions, *cmdutil.Factory, error) {
		f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
		var got *repo.RepoOptions
		cmd := repo.NewCmdRepo(f, func(_ context.Context, o *repo.RepoOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, f, cmd.ExecuteContext(context.Background())
	}
	o, f, err := parse("--full", "--offline", "--json-fields", "coordinate,lead", "--home", "/h")
	if err != nil || !o.Full || !f.Opts.Offline || len(f.Opts.JSONFields) != 2 || f.Opts.Home != "/h" {
		t.Errorf("%v, %+v, %+v", err, o, f.Opts)
	}
	if o, _, err := parse("--verbose", "--jq", ".lead"); err == nil || o != nil {
		t.Errorf("repo --verbose: %v, ran with %+v", err, o)
	}
	if o, _, err := parse("--strict"); err == nil || o != nil {
		t.Errorf("repo --strict: %v, ran with %+v", err, o)
	}
}

// Rule (flags are parsed without relays): repo graph's --history and
// --format land in its options; a --format it cannot draw is exit 2 before
// anything is read. repo history takes no argument.
func TestGraphAndHistoryFlagsParseIntoOptions(t *testing.T) {
	t.Parallel()
	f := func() *cmdutil.Factory {
		return &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
	}
	graph := func(args ...string) (*repo.GraphOptions, error) {
		var got *repo.GraphOptions
		cmd := repo.NewCmdGraph(f(), func(_ context.Context, o *repo.GraphOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, cmd.ExecuteContext(context.Background())
	}
	for _, tc := range []struct {
		args    []string
		history bool
		format  string
	}{{nil, false, "tree"}, {[]string{"--history"}, true, "tree"}, {[]string{"--format", "dot"}, false, "dot"},
		{[]string{"--format", "mermaid", "--history"}, true, "mermaid"}} {
		if o, err := graph(tc.args...); err != nil || o.History != tc.history || o.Format != tc.format {
			t.Errorf("graph %v: %v, %+v", tc.args, err, o)
		}
	}
	if o, err := graph("--format", "svg"); cmdutil.AsExitError(err).Code != cmdutil.ExitUsage || o != nil {
		t.Errorf("graph --format svg: %v, ran with %+v", err, o)
	}
	history := func(args ...string) (*repo.HistoryOptions, error) {
		var got *repo.HistoryOptions
		cmd := repo.NewCmdHistory(f(), func(_ context.Context, o *repo.HistoryOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return got, cmd.ExecuteContext(context.Background())
	}
	if o, err := history(); err != nil || o == nil || o.Factory == nil {
		t.Errorf("history: %v, %+v", err, o)
	}
	if o, err := history("extra"); err == nil || o != nil {
		t.Errorf("history extra: %v, ran with %+v", err, o)
	}
}
