package cmdutil

import (
	"slices"
	"testing"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// Rule (--timeout is suggested only for a timeout): a longer --timeout is
// offered only when some relay timed out; a refused connection gets a plain
// retry.
func TestALongerTimeoutIsSuggestedOnlyWhenARelayTimedOut(t *testing.T) {
	show := suggest.Roster("project", "show", "x")
	if got := RetryLater(show, relaypool.StatusOK, relaypool.StatusTimeout); !slices.Contains(got.Tail, "--timeout") {
		t.Errorf("a timeout: %v", got.Tail)
	}
	if got := RetryLater(show, "failed", relaypool.StatusOK); slices.Contains(got.Tail, "--timeout") {
		t.Errorf("a refused connection: %v", got.Tail)
	}
}
