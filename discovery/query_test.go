package discovery

import (
	"errors"
	"testing"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// Rule (errors say what to do): a failed re-read that a write quotes
// among its problems names the relays that did not answer and why; any
// other error is its own message.
func TestWhyNamesTheRelaysThatDidNotAnswer(t *testing.T) {
	v := &View{Selection: gitstate.Selection{Coordinate: graph.NewCoordinate("ab", "widgets")},
		Fetch: &relaypool.FetchResult{Relays: []relaypool.RelayReport{{URL: "ws://a", Status: relaypool.StatusOK},
			{URL: "ws://b", Status: relaypool.StatusTimeout, Reason: "no EOSE within 5s"}}}}
	want := "the evidence for 30617:ab:widgets is incomplete: no answer from ws://b (" + relaypool.StatusTimeout + ": no EOSE within 5s)"
	if got := Why(&Incomplete{View: v}); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if got := Why(errors.New("boom")); got != "boom" {
		t.Fatalf("got %q", got)
	}
}
