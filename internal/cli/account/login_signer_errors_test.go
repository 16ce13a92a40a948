package account_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// Errors tell the user the next command to run (docs/architecture.md "Rules of
// the house"). A mistyped key at `login --nsec` names the retry; a malformed
// ROSTER_SECRET_KEY names the variable to fix, not a login. Neither repeats the
// rejected input.
func TestBadSecretKeyNamesTheNextCommandWithoutTheKey(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	k := clitest.NewTestKey(t)
	typo := k.Nsec[:len(k.Nsec)-1] + "x"
	if typo == k.Nsec { // the checksum already ended in x: change it to q
		typo = k.Nsec[:len(k.Nsec)-1] + "q"
	}

	r := clitest.Invocation{Env: clitest.HomeEnv(t), Stdin: typo + "\n"}.Roster(t, "login", "--nsec")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "run: roster login --nsec") || strings.Contains(r.Out+r.Err, typo) {
		t.Fatalf("login with a typo: exit %d out %q err %q", r.Code, r.Out, r.Err)
	}

	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = typo
	r = clitest.Invocation{Env: env}.Roster(t, "whoami", "--json")
	var body struct {
		Error report.ErrorBody `json:"error"`
	}
	clitest.DecodeJSON(t, r, &body)
	if r.Code != cmdutil.ExitUsage || body.Error.Code != "bad-secret-key" || strings.Contains(r.Out+r.Err, typo) {
		t.Fatalf("bad ROSTER_SECRET_KEY: exit %d out %q err %q", r.Code, r.Out, r.Err)
	}
	if !strings.Contains(strings.Join(body.Error.Commands, "\n"), "unset ROSTER_SECRET_KEY") {
		t.Fatalf("bad ROSTER_SECRET_KEY names no way out: %+v", body.Error)
	}
}

// Without a keyring, login asks for a passphrase; piped stdin that ends
// before it is the user's input (exit 2, "no-input"), not an unexpected
// failure (exit 1), and the error shows how to pipe key and passphrase.
func TestLoginWithoutPassphraseOnStdinIsUsageError(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	r := clitest.Invocation{Env: clitest.HomeEnv(t), Stdin: k.Nsec + "\n", Seams: clitest.NoKeyring}.Roster(t, "login", "--nsec", "--json")
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitUsage || e.Code != "no-input" || !strings.Contains(strings.Join(e.Commands, "\n"), "| roster login --nsec") {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	if strings.Contains(r.Out+r.Err, k.Nsec) {
		t.Fatal("the key was echoed")
	}
}

// A malformed bunker URL is a usage error (exit 2) that shows the URL's
// shape, and does not repeat the URL (its secret).
func TestLoginWithMalformedBunkerURLIsUsageError(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"notabunker", "bunker://abc?relay=ws://127.0.0.1:1&secret=s3cr3t-value"} {
		r := clitest.Invocation{Env: clitest.HomeEnv(t)}.Roster(t, "login", "--bunker", u)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "run: roster login --bunker 'bunker://<64-hex remote signer pubkey>") ||
			strings.Contains(r.Out+r.Err, "s3cr3t-value") {
			t.Errorf("%s: exit %d err %q", u, r.Code, r.Err)
		}
	}
}
