package account_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule: a new passphrase typed twice differently is the user's input: exit
// 2 "passphrase-mismatch" with the login to retry, not exit 1 with
// unrelated whoami/logout suggestions.
func TestLoginPassphraseMismatchIsUsageErrorWithRetry(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	r := clitest.Invocation{Env: clitest.HomeEnv(t), Stdin: k.Nsec + "\none\ntwo\n", Seams: clitest.NoKeyring}.Roster(t, "login", "--nsec", "--json")
	e := clitest.ErrorBody(t, r)
	cmds := strings.Join(e.Commands, "\n")
	if r.Code != cmdutil.ExitUsage || e.Code != "passphrase-mismatch" || !strings.HasPrefix(cmds, "roster login --nsec") || strings.Contains(cmds, "whoami") {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
}

// Rule: an empty new passphrase is the user's input: exit 2
// "empty-passphrase" with the login to retry.
func TestLoginEmptyPassphraseIsUsageErrorWithRetry(t *testing.T) {
	t.Parallel()
	r := clitest.Invocation{Env: clitest.HomeEnv(t), Stdin: "\n", Seams: clitest.NoKeyring}.Roster(t, "login", "--generate", "--json")
	e := clitest.ErrorBody(t, r)
	cmds := strings.Join(e.Commands, "\n")
	if r.Code != cmdutil.ExitUsage || e.Code != "empty-passphrase" || !strings.HasPrefix(cmds, "roster login --generate") || strings.Contains(cmds, "whoami") {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
}

// Rule: a bunker that cannot be reached stays exit 1 (a network failure),
// named by its redacted URL and relay, never its secret, with the bunker
// login to retry.
func TestLoginUnreachableBunkerNamesTheBunkerAndTheRetry(t *testing.T) {
	t.Parallel()
	const secret = "one-time-s3cret"
	remote := clitest.NewTestKey(t).Pubkey
	u := "bunker://" + remote + "?relay=ws://127.0.0.1:1&secret=" + secret
	r := clitest.Invocation{Env: clitest.HomeEnv(t)}.Roster(t, "login", "--bunker", u, "--json")
	e := clitest.ErrorBody(t, r)
	cmds := strings.Join(e.Commands, "\n")
	if r.Code != cmdutil.ExitFailure || e.Code != "bunker-unreachable" || !strings.Contains(e.Message, "bunker://"+remote) ||
		!strings.Contains(e.Message, "online") || !strings.Contains(cmds, "roster login --bunker 'bunker://"+remote) || strings.Contains(cmds, "whoami") {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	if strings.Contains(r.Out+r.Err, secret) {
		t.Fatalf("the bunker secret is repeated: %s %s", r.Out, r.Err)
	}
}
