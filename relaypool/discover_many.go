package relaypool

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// DiscoverMany is Discover for several repositories in ONE request per
// relay: the filters of Discover for each identifier among coords (with
// the deletions of those coordinates), plus also. Reading a project's
// member repositories costs the rounds of one repository, not one per
// repository. Later rounds (DiscoverMore, CompleteDeletions, Refetch)
// treat the result as they treat Discover's.
func (p *Pool) DiscoverMany(ctx context.Context, relays []string, coords []graph.Coordinate, also ...nostr.Filter) *FetchResult {
	var filters []nostr.Filter
	var order []string
	byID := map[string][]graph.Coordinate{}
	for _, c := range coords {
		if _, ok := byID[c.Identifier]; !ok {
			order = append(order, c.Identifier)
		}
		byID[c.Identifier] = append(byID[c.Identifier], c)
	}
	for _, id := range order {
		filters = unionFilters(filters, DiscoveryFilters(id, byID[id]...))
	}
	filters = unionFilters(filters, also)
	res := p.fetch(ctx, relays, p.deferSigs.Load(), filters)
	res.filters = filters
	res.askedA = map[string]bool{}
	res.askedE = map[string]bool{}
	for _, a := range coordinateATags(coords) {
		res.askedA[a] = true
	}
	return res
}
