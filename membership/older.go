package membership

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool"
)

// noteOlderServed records on out each relay whose answer to a verification
// read still held an older version of evt's address than evt (a relay
// answering a repeated filter from a cache, as @nostr-relay does for a
// second, or one lagging behind). The change stays verified when the
// re-resolution with what the relays returned by id matches the preview
// (docs/membership.md); the result says which relay still serves the
// older version. One entry per relay: the first read that showed it.
func noteOlderServed(out *Outcome, res *relaypool.FetchResult, evt *nostr.Event) {
	for _, o := range relaypool.OlderServed(res, []*nostr.Event{evt}) {
		seen := false
		for _, have := range out.OlderServed {
			seen = seen || have.Relay == o.Relay
		}
		if !seen {
			out.OlderServed = append(out.OlderServed, o)
		}
	}
}
