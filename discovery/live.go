package discovery

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// MaxLiveAuthors bounds the authors a live subscription names
// (LiveFilters): the selected author first, then the people the resolution
// reaches in graph.Reachable's order. It keeps the subscription one REQ
// well under relaypool.MaxREQBytes (64-hex keys: about 35 KiB).
const MaxLiveAuthors = MaxWriteReach

// LiveFilters are the filters of a live subscription that sees every new
// event that can change this view's answer: any announcement or state
// event under the identifier (a stranger's costs one re-read that changes
// nothing), and the deletions (kind 5) and profiles (kind 0) of the
// selected author and everyone the resolution reaches from it and the
// viewer (graph.Reachable; NIP-09 lets only an event's author delete it).
// The reached people are those of this view: an answer that reaches
// someone new gets new filters with it.
func (v *View) LiveFilters() []nostr.Filter {
	sel := v.Coordinate()
	authors := []string{sel.Pubkey}
	seeds := []string{}
	if v.Viewer != "" {
		seeds = append(seeds, v.Viewer)
		authors = append(authors, v.Viewer)
	}
	for _, pk := range graph.Reachable(v.Events, sel, seeds...) {
		if !slices.Contains(authors, pk) {
			authors = append(authors, pk)
		}
	}
	if len(authors) > MaxLiveAuthors {
		authors = authors[:MaxLiveAuthors]
	}
	return []nostr.Filter{
		{Kinds: []int{graph.KindAnnouncement, graph.KindState}, Tags: nostr.TagMap{"d": {sel.Identifier}}},
		{Kinds: []int{0, graph.KindDeletion}, Authors: authors},
	}
}
