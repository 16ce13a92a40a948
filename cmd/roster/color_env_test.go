package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Colour follows NO_COLOR, CLICOLOR, CLICOLOR_FORCE and TERM=dumb (roster
// help environment) for the real `roster repo` output, and TERM=dumb also
// turns off the self-erasing progress line on stderr.
func TestRepoOutputColourFollowsTheEnvironment(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, relay.URL(), clitest.LeadShaped(t, "proj")...)
	cases := []struct {
		name        string
		env         map[string]string
		tty         bool
		colour, bar bool
	}{
		{"terminal", nil, true, true, true},
		{"pipe", nil, false, false, false},
		{"NO_COLOR", map[string]string{"NO_COLOR": "1"}, true, false, true},
		{"NO_COLOR over CLICOLOR_FORCE", map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, false, false, false},
		{"CLICOLOR=0", map[string]string{"CLICOLOR": "0"}, true, false, true},
		{"CLICOLOR_FORCE off a terminal", map[string]string{"CLICOLOR_FORCE": "1"}, false, true, false},
		{"TERM=dumb", map[string]string{"TERM": "dumb"}, true, false, false},
	}
	for _, c := range cases {
		env := clitest.TestEnv(t)
		for k, v := range c.env {
			env[k] = v
		}
		r := clitest.Invocation{Env: env, OutTTY: c.tty, ErrTTY: c.tty, Dir: t.TempDir()}.Roster(t,
			"repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", relay.URL(), "--timeout", "5s")
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("%s: exit %d, stderr %q", c.name, r.Code, r.Err)
		}
		if got := strings.Contains(r.Out, "\x1b["); got != c.colour {
			t.Errorf("%s: styled stdout %v, want %v:\n%q", c.name, got, c.colour, r.Out)
		}
		if got := strings.Contains(r.Err, "reading relays"); got != c.bar {
			t.Errorf("%s: progress line %v, want %v: %q", c.name, got, c.bar, r.Err)
		}
	}
}
