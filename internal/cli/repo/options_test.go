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
