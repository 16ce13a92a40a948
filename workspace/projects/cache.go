package projects

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// CacheKey names one relay's projection of one project in a cache:
// projections are per relay, because each relay signs its own community's
// state.
func CacheKey(relay string, c Coordinate) string {
	return "nip-pc:" + relay + ":" + c.Address()
}

// Keep stores each relay's verified projection and NIP-11 document of rd,
// for reading offline. An older projection never replaces a newer cached
// one. The cache is an accelerator: the problems are returned, one line
// each, for the caller to warn about, and never stop the command.
func Keep(store pipeline.Store, rd ReadResult) []string {
	var problems []string
	for _, rr := range rd.Relays {
		if rr.Info != nil {
			_ = store.PutRelayInfo(rr.URL, rr.Info)
		}
		if rr.Event == nil {
			continue
		}
		key := CacheKey(rr.URL, rr.State.Coordinate)
		if old, err := store.Projection(key); err == nil && old != nil && old.ID != rr.Event.ID &&
			(old.CreatedAt > rr.Event.CreatedAt || old.CreatedAt == rr.Event.CreatedAt && old.ID < rr.Event.ID) {
			continue
		}
		if err := store.PutProjection(key, rr.Event); err != nil {
			problems = append(problems, fmt.Sprintf("could not cache the projection from %s (%v)", rr.URL, err))
		}
	}
	return problems
}

// ReadStore answers offline from store: each relay's cached projection,
// verified again against that relay's cached NIP-11 self.
func ReadStore(store pipeline.Store, urls []string, c Coordinate) ReadResult {
	return ReadCached(relaypool.NormalizeRelays(urls), c, func(url string) (self string, evt *nostr.Event) {
		self, _ = store.CachedSelf(url)
		if e, err := store.Projection(CacheKey(url, c)); err == nil {
			evt = e
		}
		return self, evt
	})
}
