package health_test

import (
	"context"
	"io"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo/health"
)

func parseHealth(t *testing.T, args ...string) (*health.HealthOptions, *cmdutil.Factory, error) {
	t.Helper()
	f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
	var got *health.HealthOptions
	cmd := health.NewCmdHealth(f, func(_ context.Context, o *health.HealthOptions) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	return got, f, cmd.ExecuteContext(context.Background())
}

// Rule (repo health --strict scopes): --strict is the maintainers' scope,
// --strict=all every warning, --strict=true and =false as when it was a
// boolean; anything else is exit 2 before anything is read.
func TestHealthStrictScopesParseWithoutRelays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""}, {[]string{"--strict"}, "maintainers"}, {[]string{"--strict=all"}, "all"},
		{[]string{"--strict=true"}, "maintainers"}, {[]string{"--strict=false"}, ""},
	} {
		o, _, err := parseHealth(t, c.args...)
		if err != nil || o == nil || o.Strict != c.want {
			t.Errorf("%v: %v, options %+v (want strict %q)", c.args, err, o, c.want)
		}
	}
	o, _, err := parseHealth(t, "--strict=some")
	if ee := cmdutil.AsExitError(err); err == nil || ee.Code != cmdutil.ExitUsage || o != nil {
		t.Errorf("--strict=some: %v, ran with %+v", err, o)
	}
}

// Rule: --format github and --json both choose stdout, so together they
// are exit 2; --no-git-servers and the shared flags parse into the options.
func TestHealthFormatAndSharedFlags(t *testing.T) {
	t.Parallel()
	o, f, err := parseHealth(t, "--format", "github", "--no-git-servers", "--offline", "--repo", "nostr://npub1x/r")
	if err != nil || o.Format != "github" || !o.NoGitServers || !f.Opts.Offline || f.Opts.Repo != "nostr://npub1x/r" {
		t.Errorf("%v, %+v, %+v", err, o, f.Opts)
	}
	if o, _, err := parseHealth(t, "--format", "github", "--json"); cmdutil.AsExitError(err).Code != cmdutil.ExitUsage || o != nil {
		t.Errorf("--format github --json: %v, ran with %+v", err, o)
	}
}
