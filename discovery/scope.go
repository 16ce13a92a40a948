package discovery

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// InScope keeps events that are in scope (kind 30617/30618 with the
// identifier as `d`, or kind 5) and whose id matches their content, once
// each. Signatures were checked where events entered roster: relaypool
// verifies id, signature and filter of every event a relay sends, and the
// cache stores only events carrying the pool's proof of that check (or
// checks them itself); checking them again here cost a third of a cold
// read (docs/PERFORMANCE.md). The id check is cheap and catches a damaged
// cache record.
func InScope(events []*nostr.Event, identifier string) []*nostr.Event {
	out := make([]*nostr.Event, 0, len(events))
	seen := map[string]bool{}
	for _, e := range events {
		if e == nil || seen[e.ID] {
			continue
		}
		switch e.Kind {
		case graph.KindAnnouncement, graph.KindState:
			if e.Tags.GetD() != identifier {
				continue
			}
		case graph.KindDeletion:
		default:
			continue
		}
		if !e.CheckID() {
			continue
		}
		seen[e.ID] = true
		out = append(out, e)
	}
	return out
}

// HasAnnouncementOrDeletion reports whether the selected author's
// announcement (or a deletion of it, which still supports a lifecycle
// notice) was found.
func HasAnnouncementOrDeletion(events []*nostr.Event, c graph.Coordinate) bool {
	for _, e := range events {
		if e.PubKey != c.Pubkey {
			continue
		}
		if e.Kind == graph.KindAnnouncement {
			return true
		}
		if e.Kind == graph.KindDeletion {
			for _, t := range e.Tags {
				if len(t) >= 2 && t[0] == "a" && t[1] == c.ATag() {
					return true
				}
			}
		}
	}
	return false
}

// StateAuthors are the authors among reach who have a kind 30618 state
// event with the identifier among events, sorted: whose deletions decide
// which state a read resolves.
func StateAuthors(events []*nostr.Event, identifier string, reach []string) []string {
	in := map[string]bool{}
	for _, pk := range reach {
		in[pk] = true
	}
	var out []string
	for _, e := range events {
		if e != nil && e.Kind == graph.KindState && in[e.PubKey] && e.Tags.GetD() == identifier && !slices.Contains(out, e.PubKey) {
			out = append(out, e.PubKey)
		}
	}
	slices.Sort(out)
	return out
}

// DeletionFilters ask for kind 5 requests addressing the selected
// coordinate, or any announcement or state coordinate among evts of an
// author who can change the resolution (graph.Reachable from sel and seeds:
// the viewer, Source.Reach), by `a`, or any of those events by id (by `e`).
func DeletionFilters(evts []*nostr.Event, sel graph.Coordinate, seeds ...string) []nostr.Filter {
	addrs := []string{sel.ATag(), graph.Coordinate{Kind: graph.KindState, Pubkey: sel.Pubkey, Identifier: sel.Identifier}.ATag()}
	ids := []string{}
	reach := map[string]bool{}
	for _, pk := range graph.Reachable(evts, sel, seeds...) {
		reach[pk] = true
	}
	for _, e := range evts {
		if !reach[e.PubKey] {
			continue
		}
		addrs = append(addrs, graph.Coordinate{Kind: e.Kind, Pubkey: e.PubKey, Identifier: sel.Identifier}.ATag())
		ids = append(ids, e.ID)
	}
	fs := []nostr.Filter{{Kinds: []int{graph.KindDeletion}, Tags: nostr.TagMap{"a": slices.Compact(slices.Sorted(slices.Values(addrs)))}}}
	if len(ids) > 0 {
		fs = append(fs, nostr.Filter{Kinds: []int{graph.KindDeletion}, Tags: nostr.TagMap{"e": slices.Compact(slices.Sorted(slices.Values(ids)))}})
	}
	return fs
}

// MaxAnnouncedRelays bounds how many relays one announcement's `relays`
// tags can add to a read: the first MaxAnnouncedRelays distinct entries,
// in tag order after normalization, count; the rest are ignored. The
// user's own relays (--relay, ROSTER_RELAYS, config.yaml, the coordinate's
// hints) are asked anyway and never count against it.
const MaxAnnouncedRelays = 32

// NewAnnouncedRelays returns the selected announcement's `relays` entries
// that were not asked yet, among its first MaxAnnouncedRelays.
func NewAnnouncedRelays(events []*nostr.Event, c graph.Coordinate, asked []string) []string {
	var latest *nostr.Event
	for _, e := range events {
		if e.Kind == graph.KindAnnouncement && e.PubKey == c.Pubkey && (latest == nil || graph.Newer(e, latest)) {
			latest = e
		}
	}
	if latest == nil {
		return nil
	}
	known := map[string]bool{}
	for _, r := range asked {
		known[nostr.NormalizeURL(r)] = true
	}
	var out []string
	listed := map[string]bool{}
	for _, t := range latest.Tags {
		if len(t) < 2 || t[0] != "relays" {
			continue
		}
		for _, r := range t[1:] {
			n := nostr.NormalizeURL(r)
			if n == "" || listed[n] {
				continue
			}
			if len(listed) == MaxAnnouncedRelays {
				return out
			}
			listed[n] = true
			if !known[n] {
				out = append(out, n)
			}
		}
	}
	return out
}
