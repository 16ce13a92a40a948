package relaypool

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// DiscoverAlso is Discover with more filters in the same single request
// per relay (a write's discovery adds the named people's NIP-65 relay
// lists, so finding their write relays costs no round of its own). The
// extra filters are part of what later rounds ask (DiscoverMore sends them
// to newly learned relays, Refetch repeats them).
func (p *Pool) DiscoverAlso(ctx context.Context, relays []string, identifier string, coords []graph.Coordinate, also ...nostr.Filter) *FetchResult {
	if len(also) == 0 {
		return p.Discover(ctx, relays, identifier, coords...)
	}
	filters := unionFilters(DiscoveryFilters(identifier, coords...), also)
	res := p.fetch(ctx, relays, p.deferSigs.Load(), filters)
	res.filters = filters
	res.askedA = map[string]bool{}
	res.askedE = map[string]bool{}
	for _, a := range coordinateATags(coords) {
		res.askedA[a] = true
	}
	return res
}
