package main

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/dev"
)

// Rule (nip-sw.md: imported and moved channels "exist in the same community,
// and are not deleted"): the relay `roster dev relay` runs checks a move
// against its channel table, its NIP-29 groups. On the demo, moving a
// channel that is no group there is refused naming it, and nothing
// changes; moving one of its groups' channels is accepted.
func TestDevRelayMovesOnlyChannelsItsGroupsHold(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{Authorities: dev.DevRelayAuthorities()})[0]
	if _, err := devrelay.SeedDemo(relay, time.Now()); err != nil {
		t.Fatal(err)
	}
	alice := func(args ...string) clitest.Result {
		env := map[string]string{"ROSTER_SECRET_KEY": devrelay.DemoKey("alice"), "ROSTER_HOME": t.TempDir()}
		return clitest.Invocation{Env: env}.Roster(t, append(args, "--relay", relay.URL(), "--timeout", "5s")...)
	}
	const missing = "0ddba110-0000-4000-8000-000000000009"
	r := alice("workspace", "move", missing, "--to", "Reading")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, missing) {
		t.Fatalf("moving a channel no group holds: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if r := alice("workspace", "move", devrelay.DemoHomeChannel, "--to", "Reading"); r.Code != cmdutil.ExitOK {
		t.Fatalf("moving the demo group's channel: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}
