package relaypool

import (
	"context"
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool/verified"
)

// Round trips of repository discovery (docs/PERFORMANCE.md, "relaypool"):
//
//   - Discover: exactly one REQ per relay. It asks for every announcement and
//     state event with the identifier (whoever signed it) and for kind 5
//     deletions whose `a` tag names a given coordinate's announcement or state.
//   - DiscoverMore: one more REQ, only to relays not asked yet (a relay
//     learned from the selected announcement's `relays` tag); none when there
//     is no new relay.
//   - Refetch: one REQ per relay carrying every filter of an earlier
//     discovery's rounds (a write's recheck and re-read).
//   - CompleteDeletions: one more REQ per relay, only when the result holds
//     announcement or state events of the given authors (the ones that can
//     change the resolution) whose deletions were not asked for yet (their
//     `a` addresses and every such event's `e` id). Writes need it; a read
//     can skip it.
//
// Any of these requests that would exceed MaxREQBytes is sent as several
// smaller REQs, one after another on the relay's connection.

// DiscoveryLimit is the limit Discover's same-identifier filter carries:
// that filter names no author, so anyone can grow its answer, and a relay
// answers at most this many of its events (its newest). The events of the
// authors who can matter are asked by author as well (AuthorFilters), so
// the limit never hides them.
const DiscoveryLimit = 500

// DiscoveryFilters are the filters of Discover's single request: every
// announcement and state event with the identifier (at most
// DiscoveryLimit, naming no author) and the kind 5 deletions the given
// coordinates' authors signed naming their announcement or state address.
func DiscoveryFilters(identifier string, coords ...graph.Coordinate) []nostr.Filter {
	filters := []nostr.Filter{{
		Kinds: []int{graph.KindAnnouncement, graph.KindState},
		Tags:  nostr.TagMap{"d": []string{identifier}},
		Limit: DiscoveryLimit,
	}}
	if a := coordinateATags(coords); len(a) > 0 {
		filters = append(filters, nostr.Filter{Kinds: []int{graph.KindDeletion}, Authors: coordinateAuthors(coords), Tags: nostr.TagMap{"a": a}})
	}
	return filters
}

// AuthorFilter asks for the announcements and state events under
// identifier of exactly authors: what a relay holds of the people who can
// matter, whatever strangers published under the same identifier.
func AuthorFilter(identifier string, authors []string) nostr.Filter {
	return nostr.Filter{Kinds: []int{graph.KindAnnouncement, graph.KindState}, Authors: slices.Compact(slices.Sorted(slices.Values(authors))),
		Tags: nostr.TagMap{"d": []string{identifier}}}
}

// AuthorFilters are AuthorFilter and the deletions authors signed of their
// announcement and state addresses: a later round's request for authors
// reached after the first.
func AuthorFilters(identifier string, authors []string) []nostr.Filter {
	f := AuthorFilter(identifier, authors)
	if len(f.Authors) == 0 {
		return nil
	}
	coords := make([]graph.Coordinate, len(f.Authors))
	for i, pk := range f.Authors {
		coords[i] = graph.NewCoordinate(pk, identifier)
	}
	return []nostr.Filter{f, {Kinds: []int{graph.KindDeletion}, Authors: f.Authors, Tags: nostr.TagMap{"a": coordinateATags(coords)}}}
}

// CappedRelays are the relays of res whose answer to a filter naming no
// author was possibly cut (RelayReport.Capped).
func CappedRelays(res *FetchResult) []string {
	var out []string
	for _, r := range res.Relays {
		if r.Capped {
			out = append(out, r.URL)
		}
	}
	return out
}

func coordinateAuthors(coords []graph.Coordinate) []string {
	out := make([]string, 0, len(coords))
	for _, c := range coords {
		out = append(out, c.Pubkey)
	}
	return slices.Compact(slices.Sorted(slices.Values(out)))
}

// coordinateATags names, for each coordinate's author, both the announcement
// and the state event address, deduplicated, in a stable order.
func coordinateATags(coords []graph.Coordinate) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range coords {
		for _, kind := range []int{graph.KindAnnouncement, graph.KindState} {
			a := fmt.Sprintf("%d:%s:%s", kind, c.Pubkey, c.Identifier)
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// Discover reads a repository in one request per relay: every kind 30617 and
// 30618 event with d = identifier, and kind 5 deletions naming the given
// coordinates (normally the selected one; pass others known from the cache to
// cover their deletions in the same round).
func (p *Pool) Discover(ctx context.Context, relays []string, identifier string, coords ...graph.Coordinate) *FetchResult {
	filters := DiscoveryFilters(identifier, coords...)
	res := p.fetch(ctx, relays, p.deferSigs.Load(), filters)
	res.filters = filters
	res.askedA = map[string]bool{}
	res.askedE = map[string]bool{}
	for _, a := range coordinateATags(coords) {
		res.askedA[a] = true
	}
	return res
}

// DiscoverMore asks the relays of relays that prev has not asked yet, with
// the same filters, and merges the answers into a new result. With no new
// relay it returns prev and sends nothing.
func (p *Pool) DiscoverMore(ctx context.Context, prev *FetchResult, relays []string) *FetchResult {
	asked := map[string]bool{}
	for _, r := range prev.Relays {
		asked[r.URL] = true
	}
	var fresh []string
	for _, u := range NormalizeRelays(relays) {
		if !asked[u] {
			fresh = append(fresh, u)
		}
	}
	if len(fresh) == 0 || len(prev.filters) == 0 {
		return prev
	}
	next := p.fetch(ctx, fresh, p.deferSigs.Load(), prev.filters)
	next.filters = prev.filters
	return merge(prev, next)
}

// Ask sends filters, in one more round, to relays (normally some of prev's:
// the ones whose answer was capped) and merges the answers into a new
// result; the filters become part of what later rounds ask (DiscoverMore,
// Refetch). With no relay or no filter it returns prev and sends nothing.
func (p *Pool) Ask(ctx context.Context, prev *FetchResult, relays []string, filters ...nostr.Filter) *FetchResult {
	relays = NormalizeRelays(relays)
	if len(relays) == 0 || len(filters) == 0 {
		return prev
	}
	next := p.fetch(ctx, relays, p.deferSigs.Load(), filters)
	next.filters = filters
	return merge(prev, next)
}

// CompleteDeletions asks prev's relays, in one more round each, for kind 5
// deletions of the discovered announcement and state events of authors
// (normally graph.Reachable: whoever can change the resolution) not
// covered yet: by `a` address and by `e` id, signed by those authors.
// Events of other authors are not asked about, so same-identifier spam from
// unrelated keys does not grow the request; a request that is still large
// is split under MaxREQBytes. It sends nothing and returns prev when
// everything is covered.
//
// also are more filters for the same request (discovery's role-scoped
// events, whose coordinates are known only now): with any, the round is
// sent even when every deletion is covered.
func (p *Pool) CompleteDeletions(ctx context.Context, prev *FetchResult, authors []string, also ...nostr.Filter) *FetchResult {
	wanted := make(map[string]bool, len(authors))
	for _, a := range authors {
		wanted[a] = true
	}
	needA, needE, who := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, e := range prev.Events {
		if (e.Kind != graph.KindAnnouncement && e.Kind != graph.KindState) || !wanted[e.PubKey] {
			continue
		}
		if a := fmt.Sprintf("%d:%s:%s", e.Kind, e.PubKey, e.Tags.GetD()); !prev.askedA[a] {
			needA[a] = true
			who[e.PubKey] = true
		}
		if !prev.askedE[e.ID] {
			needE[e.ID] = true
			who[e.PubKey] = true
		}
	}
	if len(needA) == 0 && len(needE) == 0 && len(also) == 0 {
		return prev
	}
	var filters []nostr.Filter
	if len(needA) > 0 {
		filters = append(filters, nostr.Filter{Kinds: []int{graph.KindDeletion}, Authors: sortedKeys(who), Tags: nostr.TagMap{"a": sortedKeys(needA)}})
	}
	if len(needE) > 0 {
		filters = append(filters, nostr.Filter{Kinds: []int{graph.KindDeletion}, Authors: sortedKeys(who), Tags: nostr.TagMap{"e": sortedKeys(needE)}})
	}
	filters = append(filters, also...)
	urls := make([]string, len(prev.Relays))
	for i, r := range prev.Relays {
		urls[i] = r.URL
	}
	next := p.fetch(ctx, urls, p.deferSigs.Load(), filters)
	next.filters = filters
	next.askedA, next.askedE = needA, needE
	return merge(prev, next)
}

// Reask asks relays that prev already asked once more, in one request each
// carrying every filter prev asked (all its rounds), and merges the answers
// into a new result in which each re-asked relay's Answered is its new
// answer: the re-ask stands for everything prev asked of it. A relay that
// fails the re-ask makes the result incomplete. With no relay it returns
// prev and sends nothing.
func (p *Pool) Reask(ctx context.Context, prev *FetchResult, relays []string) *FetchResult {
	relays = NormalizeRelays(relays)
	if len(relays) == 0 || len(prev.filters) == 0 {
		return prev
	}
	next := p.Fetch(ctx, relays, prev.filters...)
	next.filters = prev.filters
	out := merge(prev, next)
	for _, r := range next.Relays {
		for i := range out.Relays {
			if out.Relays[i].URL == r.URL {
				out.Relays[i].Answered = r.Answered
			}
		}
	}
	return out
}

// Refetch asks relays once more, in ONE request each carrying every filter
// prev asked over all its rounds plus also, and returns their fresh answer
// alone (not merged with prev): one round that stands for a whole earlier
// discovery, as a write's recheck and re-read need; the re-read after
// publishing adds the read-back's filters (also), so reading back costs no
// round of its own. Signatures are deferred as in Discover when the pool
// defers them. With no filter or no relay it sends nothing and returns an
// incomplete, empty result.
func (p *Pool) Refetch(ctx context.Context, prev *FetchResult, relays []string, also ...nostr.Filter) *FetchResult {
	if len(prev.filters) == 0 {
		return &FetchResult{Sources: map[string][]string{}, verified: map[string]verified.Event{}}
	}
	filters := unionFilters(prev.filters, also)
	next := p.fetch(ctx, relays, p.deferSigs.Load(), filters)
	next.filters = filters
	next.askedA, next.askedE = map[string]bool{}, map[string]bool{}
	for k := range prev.askedA {
		next.askedA[k] = true
	}
	for k := range prev.askedE {
		next.askedE[k] = true
	}
	return next
}

// DeferSignatures makes this pool's discovery rounds (Discover,
// DiscoverMore, CompleteDeletions) check each event's id and filter on
// arrival but leave its signature for VerifyAuthors: the events stay out of
// FetchResult.Events until then. A reader asks for every same-identifier
// announcement, and anyone can publish thousands under any identifier;
// with this, the ones that cannot change the resolution (graph.Reachable)
// cost an id hash and never a signature check, and are never used or
// cached. Call it before the pool's first discovery round.
func (p *Pool) DeferSignatures() { p.deferSigs.Store(true) }

// VerifyAuthors checks the signatures of res's pending events signed by
// authors (each (id, sig) pair once, as always) and moves the valid ones into
// res.Events. Every relay's copy counts on its own: an id stands when any
// relay sent a copy that verifies, and a relay whose copy failed has it
// counted as dropped and recorded as forged (RelayReport.Forged), never
// taking another relay's valid copy with it. It reports whether any event
// was added.
func (p *Pool) VerifyAuthors(res *FetchResult, authors []string) bool {
	if len(res.pending) == 0 || len(authors) == 0 {
		return false
	}
	want := make(map[string]bool, len(authors))
	for _, a := range authors {
		want[a] = true
	}
	added := false
	for id, copies := range res.pending {
		if !want[first(copies).PubKey] {
			continue
		}
		if p.settleCopies(res, id) {
			added = true
		}
	}
	if added {
		sortEvents(res.Events)
	}
	return added
}

// merge combines two rounds: events deduplicated, per-relay reports summed
// (a relay that failed in either round is not ok), asked sets unioned.
func merge(a, b *FetchResult) *FetchResult {
	out := &FetchResult{Sources: map[string][]string{}, askedA: map[string]bool{}, askedE: map[string]bool{}, verified: map[string]verified.Event{}}
	for _, r := range []*FetchResult{a, b} {
		for _, e := range r.Events {
			if _, seen := out.verified[e.ID]; !seen {
				out.verified[e.ID] = r.verified[e.ID]
				out.Events = append(out.Events, e)
			}
		}
	}
	for _, r := range []*FetchResult{a, b} {
		for id, copies := range r.pending {
			if _, done := out.verified[id]; done {
				continue
			}
			for _, c := range copies {
				for _, u := range c.relays {
					out.hold(c.evt, u)
				}
			}
		}
		for id, urls := range r.Sources {
			for _, u := range urls {
				if !slices.Contains(out.Sources[id], u) {
					out.Sources[id] = append(out.Sources[id], u)
				}
			}
		}
		for k := range r.askedA {
			out.askedA[k] = true
		}
		for k := range r.askedE {
			out.askedE[k] = true
		}
	}
	sortEvents(out.Events)
	index := map[string]int{}
	for _, r := range append(append([]RelayReport(nil), a.Relays...), b.Relays...) {
		i, ok := index[r.URL]
		if !ok {
			index[r.URL] = len(out.Relays)
			r.Forged = slices.Clone(r.Forged)
			out.Relays = append(out.Relays, r)
			continue
		}
		prev := &out.Relays[i]
		prev.Events += r.Events
		prev.Dropped += r.Dropped
		prev.Capped = prev.Capped || r.Capped
		prev.ForgedCount += r.ForgedCount
		for _, id := range r.Forged {
			if len(prev.Forged) < MaxForged && !slices.Contains(prev.Forged, id) {
				prev.Forged = append(prev.Forged, id)
			}
		}
		if prev.Answered.IsZero() || !r.Answered.IsZero() && r.Answered.Before(prev.Answered) {
			prev.Answered = r.Answered
		}
		if prev.Status == StatusOK && r.Status != StatusOK {
			prev.Status, prev.Reason = r.Status, r.Reason
		}
	}
	out.Complete = len(out.Relays) > 0
	for _, r := range out.Relays {
		if r.Status != StatusOK {
			out.Complete = false
		}
	}
	out.filters = unionFilters(a.filters, b.filters)
	return out
}

func unionFilters(a, b []nostr.Filter) []nostr.Filter {
	out := append([]nostr.Filter(nil), a...)
	for _, f := range b {
		dup := false
		for _, g := range out {
			if nostr.FilterEqual(f, g) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, f)
		}
	}
	return out
}
