package main

import (
	"encoding/json"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Round trips (docs/PERFORMANCE.md, "Round trips per command"): how many
// REQs and EVENTs each repository command sends to each relay, cold (an
// empty cache), when the relay set and the component need no extra
// discovery round. Two relays, so a count that only one relay pays shows.
func TestRoundTripsPerCommand(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))

	cases := []struct {
		what         string
		as           clitest.Person
		now          int64
		args         []string
		reqs, events int
		exit         int
	}{
		{"repo (discovery, profiles)", clitest.Alice, 200, []string{"repo"}, 2, 0, cmdutil.ExitOK},
		{"repo health", clitest.Alice, 200, []string{"repo", "health"}, 2, 0, cmdutil.ExitOK},
		{"repo edit --add-maintainer --dry-run (discovery, deletions, profiles)", clitest.Alice, 300, []string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run"}, 3, 0, cmdutil.ExitOK},
		{"repo edit --add-maintainer", clitest.Alice, 1000, []string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub()}, 6, 1, cmdutil.ExitOK},
		{"repo accept", clitest.Bob, 2000, []string{"repo", "accept"}, 6, 1, cmdutil.ExitOK},
		{"repo edit --add-maintainer (a confirmed co-maintainer's events and deletions too)", clitest.Alice, 3000, []string{"repo", "edit", "--add-maintainer", clitest.Carol.Npub()}, 6, 1, cmdutil.ExitOK},
	}
	for _, c := range cases {
		mark := clitest.MarkTraffic(w.Relays)
		r := w.ColdRun(c.as, clitest.Alice, c.now, append(c.args, "--json")...)
		if r.Code != c.exit {
			t.Fatalf("%s: exit %d\n%s%s", c.what, r.Code, r.Out, r.Err)
		}
		clitest.WantTraffic(t, c.what, mark.Since(), c.reqs, c.events)
		var out struct {
			Verified bool `json:"verified"`
		}
		if c.events > 0 && (json.Unmarshal([]byte(r.Out), &out) != nil || !out.Verified) {
			t.Fatalf("%s: not verified:\n%s", c.what, r.Out)
		}
	}
}

// Round trips of `repo init` (docs/PERFORMANCE.md, "Round trips per
// command"): one REQ for the author's existing announcement, the same REQ
// again right before the send (one published meanwhile stops init), the
// EVENT, and one REQ reading it back, per relay.
func TestRoundTripsOfRepoInit(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	mark := clitest.MarkTraffic(relays)
	r := clitest.Invocation{Env: env, Dir: dir}.Roster(t, append([]string{"repo", "init", "--json"}, clitest.InitRelayFlags(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	clitest.WantTraffic(t, "repo init", mark.Since(), 3, 1)
}
