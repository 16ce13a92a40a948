package discovery_test

import (
	"slices"
	"testing"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/relaypool"
)

func TestUnansweredNamesEveryRelayWithoutEOSEInTheOrderAsked(t *testing.T) {
	v := &discovery.View{Fetch: &relaypool.FetchResult{Relays: []relaypool.RelayReport{
		{URL: "wss://a", Status: relaypool.StatusTimeout},
		{URL: "wss://b", Status: relaypool.StatusOK},
		{URL: "wss://c", Status: relaypool.StatusClosed, Reason: "auth-required: no"},
		{URL: "wss://d", Status: relaypool.StatusFailed},
	}}}
	if got, want := v.Unanswered(), []string{"wss://a", "wss://c", "wss://d"}; !slices.Equal(got, want) {
		t.Fatalf("Unanswered() = %q, want %q", got, want)
	}
	if got := (&discovery.View{Offline: true}).Unanswered(); got != nil {
		t.Fatalf("offline Unanswered() = %q, want none", got)
	}
}
