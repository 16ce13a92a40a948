package main

import (
	"strings"
	"testing"
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
func runSecretsSession(t *testing.T, k testKey, env map[string]string, steps []sessionStep) {
	t.Helper()
	outputs := map[string]string{}
	for i, s := range steps {
		r := invocation{Env: env, Stdin: s.stdin}.roster(t, s.args...)
		if r.Code != s.code {
			t.Fatalf("step %d roster %s: exit %d, want %d (stderr %q)", i, strings.Join(s.args, " "), r.Code, s.code, r.Err)
		}
		name := strings.Join(s.args, " ")
		outputs[name+" (stdout)"] = r.Out
		outputs[name+" (stderr)"] = r.Err
	}
	if leaks := secretLeaks(t, k, outputs, env["ROSTER_HOME"]); len(leaks) > 0 {
		t.Fatalf("the secret key appears in: %v", leaks)
	}
}

// Issue 4: "Secrets never reach stdout, stderr, logs, JSON, error messages,
// or the cache" — a session using ROSTER_SECRET_KEY.
func TestSecretsSessionWithRosterSecretKeyLeaksNothing(t *testing.T) {
	k := newTestKey(t)
	for _, form := range []string{k.nsec, k.hex, strings.ToUpper(k.hex)} {
		env := homeEnv(t)
		env["ROSTER_SECRET_KEY"] = form
		runSecretsSession(t, k, env, []sessionStep{
			{args: []string{"whoami"}},
			{args: []string{"whoami", "--json"}},
			{args: []string{"login", "--nsec"}, stdin: "", code: exitUsage},
			{args: []string{"logout"}},
			{args: []string{"logout", "--json"}},
			{args: []string{"repo", "init", "--no-such-flag"}, code: exitUsage},
		})
	}
}

// The same with a keyring login (real Secret Service in the CI keyring
// session, go-keyring's mock elsewhere).
func TestSecretsSessionWithKeyringLoginLeaksNothing(t *testing.T) {
	signerTestKeyring(t)
	k := newTestKey(t)
	env := homeEnv(t)
	runSecretsSession(t, k, env, []sessionStep{
		{args: []string{"login", "--nsec"}, stdin: k.nsec + "\n"},
		{args: []string{"whoami"}},
		{args: []string{"--json", "whoami"}},
		{args: []string{"login", "--nsec", "--json"}, stdin: k.hex + "\n"},
		{args: []string{"login", "--nsec", k.nsec}, code: exitUsage},
		{args: []string{"login", "--nsec=" + k.hex, "--json"}, code: exitUsage},
		{args: []string{"logout", "--json"}},
		{args: []string{"whoami", "--json"}, code: exitUsage},
	})
}
