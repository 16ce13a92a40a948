package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (flags mean something): a --relay, ROSTER_RELAYS or config.yaml
// relay that is not a ws:// or wss:// URL with a host is a usage error
// naming the setting and the value, never dropped ("no --relay was given")
// or mangled (ws:// dialled as ws://ws, ftp://x as a relay); a command that
// reads no relay is not bothered by ROSTER_RELAYS.
func TestBadRelayValuesAreUsageErrors(t *testing.T) {
	t.Parallel()
	repo := clitest.Alice.Naddr("proj")
	for _, c := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--relay", "not a url"}, `--relay: "not a url" is not a relay URL`},
		{nil, []string{"--relay", "ws://"}, `--relay: "ws://" is not a relay URL: it names no host`},
		{nil, []string{"--relay", "ftp://x"}, `--relay: "ftp://x" is not a relay URL: a relay speaks ws:// or wss://, not ftp://`},
		{map[string]string{"ROSTER_RELAYS": " , "}, nil, "ROSTER_RELAYS is set but names no relay"},
	} {
		env := clitest.TestEnv(t)
		for k, v := range c.env {
			env[k] = v
		}
		r := clitest.Invocation{Env: env, Dir: t.TempDir()}.Roster(t, append([]string{"repo", "--repo", repo}, c.args...)...)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, c.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want 2 saying %q", c.env, c.args, r.Code, r.Err, c.want)
		}
		// The way out is the same command with a relay URL, a whole
		// command that keeps the user's --repo.
		if !strings.Contains(r.Err, "run: roster repo --repo "+repo+" --relay wss://<relay>") {
			t.Errorf("%v %v: the suggestion is not the command with a relay: %q", c.env, c.args, r.Err)
		}
	}
	env := clitest.TestEnv(t)
	env["ROSTER_RELAYS"] = "ftp://x"
	if r := (clitest.Invocation{Env: env}).Roster(t, "version"); r.Code != cmdutil.ExitOK {
		t.Errorf("roster version with a bad ROSTER_RELAYS: exit %d %s", r.Code, r.Err)
	}
}
