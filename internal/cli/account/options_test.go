package account_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/account"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// parse runs the command build makes on args, catching the options its
// runF receives: flag parsing alone, no keyring, no signer, no bunker.
func parse[O any](build func(*cmdutil.Factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, *cmdutil.Factory, error) {
	f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
	var got *O
	cmd := build(f, func(_ context.Context, o *O) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	return got, f, cmd.ExecuteContext(context.Background())
}

func usage(err error) bool { return err != nil && cmdutil.AsExitError(err).Code == cmdutil.ExitUsage }

// Rule (flags are parsed without a keyring): login takes exactly one way
// to log in into its options; none, two, --show-secret without
// --generate, a value after --nsec or any argument (a secret on the
// command line) are exit 2 before any secret is read, and the refusal
// never repeats the argument.
func TestLoginFlagsParseIntoOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want func(*account.LoginOptions) bool
	}{
		{[]string{"--nsec"}, func(o *account.LoginOptions) bool { return o.Nsec && !o.Generate && o.Bunker == "" }},
		{[]string{"--ncryptsec", "--json"}, func(o *account.LoginOptions) bool { return o.Ncryptsec && !o.Nsec }},
		{[]string{"--generate", "--show-secret"}, func(o *account.LoginOptions) bool { return o.Generate && o.ShowSecret }},
		{[]string{"--bunker", "bunker://abc?relay=wss://r.example"}, func(o *account.LoginOptions) bool { return o.Bunker == "bunker://abc?relay=wss://r.example" }},
	} {
		if o, _, err := parse(account.NewCmdLogin, tc.args...); err != nil || !tc.want(o) {
			t.Errorf("login %v: %v, %+v", tc.args, err, o)
		}
	}
	const secret = "nsec1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
	for _, bad := range [][]string{nil, {"--nsec", "--generate"}, {"--nsec", "--show-secret"}, {"--nsec=" + secret}, {secret}} {
		o, _, err := parse(account.NewCmdLogin, bad...)
		if !usage(err) || o != nil {
			t.Errorf("login %v: %v, ran with %+v", bad, err, o)
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("login %v: the refusal repeats the secret: %v", bad, err)
		}
	}
}

// Rule: logout and whoami take only the output flags and --home, no
// argument.
func TestLogoutAndWhoamiTakeOnlyTheSharedFlags(t *testing.T) {
	t.Parallel()
	if o, f, err := parse(account.NewCmdLogout, "--json", "--home", "/h"); err != nil || o == nil || !f.Opts.JSON || f.Opts.Home != "/h" {
		t.Errorf("logout: %v, %+v", err, o)
	}
	if o, f, err := parse(account.NewCmdWhoami, "--jq", ".npub"); err != nil || o == nil || f.Opts.JQ != ".npub" {
		t.Errorf("whoami: %v, %+v", err, o)
	}
	for _, bad := range [][]string{{"npub1x"}, {"--relay", "wss://r.example"}} {
		if o, _, err := parse(account.NewCmdWhoami, bad...); err == nil || o != nil {
			t.Errorf("whoami %v: %v, ran with %+v", bad, err, o)
		}
		if o, _, err := parse(account.NewCmdLogout, bad...); err == nil || o != nil {
			t.Errorf("logout %v: %v, ran with %+v", bad, err, o)
		}
	}
}
