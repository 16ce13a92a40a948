package repo_test

import (
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/relaytest"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (docs/usage.md "How long a command can take": a relay costs at most
// one --timeout per round): beside an honest relay, a relay that never
// completes the websocket handshake costs `roster repo` one --timeout, not
// one for the discovery and another for the profiles asked of it.
func TestARelayThatNeverCompletesTheHandshakeCostsOneTimeout(t *testing.T) {
	t.Parallel()
	rl := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, rl.URL(), clitest.LeadShaped(t, "proj")...)
	clitest.Publish(t, rl.URL(), clitest.Alice.Profile(t, 500, map[string]any{"name": "alice"}))
	stuck := relaytest.SilentListener(t)
	inv := clitest.Invocation{Env: clitest.TestEnv(t)}
	const timeout = 2 * time.Second
	start := time.Now()
	r := inv.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL(), "--relay", stuck, "--timeout", timeout.String(), "--json")
	took := time.Since(start)
	if r.Code != cmdutil.ExitIncomplete && r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if took > timeout+time.Second { // two timeouts (dialled again for the profiles) would be 4 s
		t.Fatalf("roster repo took %v with --timeout %v and one relay that never completes the handshake; want one timeout and slack", took, timeout)
	}
}
