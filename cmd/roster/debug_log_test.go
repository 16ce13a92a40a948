package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// --debug (or ROSTER_DEBUG=1) logs each relay request and a summary of its
// answer to stderr, and nothing else changes: stdout is the same JSON, and
// no key appears in the log.
func TestDebugLogsRelayRequestsToStderrOnly(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, relay.URL(), clitest.LeadShaped(t, "proj")...)
	base := []string{"repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", relay.URL(), "--timeout", "5s", "--jq", ".complete"}
	plain := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, base...)
	if plain.Code != cmdutil.ExitOK || strings.Contains(plain.Err, "debug:") {
		t.Fatalf("without --debug: exit %d %q", plain.Code, plain.Err)
	}
	env := clitest.TestEnv(t)
	flag := clitest.Invocation{Env: env, Dir: t.TempDir()}.Roster(t, append(base, "--debug")...)
	env2 := clitest.TestEnv(t)
	env2["ROSTER_DEBUG"] = "1"
	byEnv := clitest.Invocation{Env: env2, Dir: t.TempDir()}.Roster(t, base...)
	for name, r := range map[string]clitest.Result{"--debug": flag, "ROSTER_DEBUG=1": byEnv} {
		if r.Code != cmdutil.ExitOK || r.Out != plain.Out {
			t.Errorf("%s: exit %d, stdout %q, want %q", name, r.Code, r.Out, plain.Out)
		}
		for _, want := range []string{"roster: debug: REQ " + relay.URL() + " {kinds ", "roster: debug: answer " + relay.URL() + ": ok, "} {
			if !strings.Contains(r.Err, want) {
				t.Errorf("%s: stderr lacks %q:\n%s", name, want, r.Err)
			}
		}
		for _, secret := range []string{env["ROSTER_SECRET_KEY"], env2["ROSTER_SECRET_KEY"]} {
			if secret != "" && strings.Contains(r.Err, secret) {
				t.Errorf("%s: the log carries the secret key", name)
			}
		}
	}
}
