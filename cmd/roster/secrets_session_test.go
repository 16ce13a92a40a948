package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// sessionStep is one command of a secrets session.
type sessionStep struct {
	stdin string
	args  []string
	// code is the expected exit code.
	code int
}

// runSecretsSession runs steps and fails on any output, account file or cache
// file containing k's secret in nsec or hex form.
func runSecretsSession(t *testing.T, k clitest.TestKey, env map[string]string, dir string, steps []sessionStep) {
	t.Helper()
	outputs := map[string]string{}
	for i, s := range steps {
		r := clitest.Invocation{Env: env, Stdin: s.stdin, Dir: dir}.Roster(t, s.args...)
		if r.Code != s.code {
			t.Fatalf("step %d roster %s: exit %d, want %d (stderr %q)", i, strings.Join(s.args, " "), r.Code, s.code, r.Err)
		}
		name := strings.Join(s.args, " ")
		outputs[name+" (stdout)"] = r.Out
		outputs[name+" (stderr)"] = r.Err
	}
	if !sessionFilledACache(t, env["ROSTER_HOME"]) {
		t.Fatalf("no cache file under %s: the grep would not cover the cache", env["ROSTER_HOME"])
	}
	if leaks := clitest.SecretLeaks(t, k, outputs, env["ROSTER_HOME"], dir); len(leaks) > 0 {
		t.Fatalf("the secret key appears in: %v", leaks)
	}
}

// repoInitSteps announce a checkout (setting origin), re-announce it with
// --json, and hit two usage errors.
func repoInitSteps(relay string) []sessionStep {
	return []sessionStep{
		{args: []string{"repo", "init", "--relay", relay, "--set-origin"}},
		{args: []string{"repo", "init", "--relay", relay, "--json"}},
		// A read fills the cache in ROSTER_HOME, which the grep covers.
		{args: []string{"repo", "--relay", relay, "--json"}},
		{args: []string{"repo", "health", "--relay", relay}},
		{args: []string{"--json", "repo", "init", "--relay", relay, "--identifier", "bad id"}, code: cmdutil.ExitUsage},
		{args: []string{"repo", "init", "--no-such-flag"}, code: cmdutil.ExitUsage},
	}
}

// Rule (secrets never reach stdout, stderr, logs, JSON, error messages, or
// the cache): a session using ROSTER_SECRET_KEY, in nsec and hex form.
func TestSecretsSessionWithRosterSecretKeyLeaksNothing(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	for _, form := range []string{k.Nsec, k.Hex, strings.ToUpper(k.Hex)} {
		env := clitest.HomeEnv(t)
		env["ROSTER_SECRET_KEY"] = form
		dir, _ := clitest.InitTestCheckout(t, "widget")
		steps := []sessionStep{
			{args: []string{"whoami"}},
			{args: []string{"whoami", "--json"}},
			{args: []string{"login", "--nsec"}, stdin: "", code: cmdutil.ExitUsage},
		}
		steps = append(steps, repoInitSteps(relay.URL())...)
		steps = append(steps, sessionStep{args: []string{"logout"}}, sessionStep{args: []string{"logout", "--json"}})
		runSecretsSession(t, k, env, dir, steps)
	}
}

// The same with a keyring login (real Secret Service in the CI keyring
// session, go-keyring's mock elsewhere).
func TestSecretsSessionWithKeyringLoginLeaksNothing(t *testing.T) {
	t.Parallel()
	clitest.SignerTestKeyring(t)
	k := clitest.NewTestKey(t)
	env := clitest.HomeEnv(t)
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	dir, _ := clitest.InitTestCheckout(t, "widget")
	steps := []sessionStep{
		{args: []string{"login", "--nsec"}, stdin: k.Nsec + "\n"},
		{args: []string{"whoami"}},
		{args: []string{"--json", "whoami"}},
		{args: []string{"login", "--nsec", "--json"}, stdin: k.Hex + "\n"},
		{args: []string{"login", "--nsec", k.Nsec}, code: cmdutil.ExitUsage},
		{args: []string{"login", "--nsec=" + k.Hex, "--json"}, code: cmdutil.ExitUsage},
	}
	steps = append(steps, repoInitSteps(relay.URL())...)
	steps = append(steps,
		sessionStep{args: []string{"logout", "--json"}},
		sessionStep{args: []string{"whoami", "--json"}, code: cmdutil.ExitUsage},
		sessionStep{args: []string{"repo", "init", "--relay", relay.URL()}, code: cmdutil.ExitUsage},
	)
	runSecretsSession(t, k, env, dir, steps)
}

// sessionFilledACache reports whether home holds any file besides the
// account record and key files, i.e. the cache was written.
func sessionFilledACache(t *testing.T, home string) bool {
	t.Helper()
	found := false
	_ = filepath.Walk(home, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".ncryptsec") {
			found = true
		}
		return nil
	})
	return found
}
