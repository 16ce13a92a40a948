package change_test

import (
	"math"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (never date an event so far ahead that it locks the next edit out):
// an announcement of Alice's dated int64 max − 2 would make her next
// replacement max − 1, after which one more edit is possible and then
// none. The change is refused (exit 3, base-in-the-future) naming the event
// and the clock, and nothing is published.
func TestABaseFarAheadOfTheClockRefusesTheChangeEndToEnd(t *testing.T) {
	w := clitest.NewMutWorld(t, 1)
	base := clitest.Alice.Announce(t, w.Id, math.MaxInt64-2)
	w.Seed(base)
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "base-in-the-future", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	e := m["error"].(map[string]any)
	if msg := e["message"].(string); !strings.Contains(msg, base.ID) || !strings.Contains(msg, "after this machine's clock") {
		t.Fatalf("message does not name %s and why:\n%s", base.ID, msg)
	}
}
