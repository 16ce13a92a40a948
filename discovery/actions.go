package discovery

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// Role-scoped events (statuses, labels, cover notes) and the issues,
// patches and pull requests they apply to are found through their `a` tag
// naming a component's coordinate. Anyone can publish them, so a read is
// bounded: only the component's own authors' events and the targets'
// authors' events on their own targets get a signature check, at most
// MaxActionEvents are kept (newest first), and none over MaxActionEventBytes.
const (
	MaxActionEvents     = 4096
	MaxActionEventBytes = cache.MaxEventBytes
)

// ActionFilters ask for every role-scoped event and target naming the
// coordinate of any of authors under identifier: one filter, sent in the
// same request as a write's deletion round (no round of its own).
func ActionFilters(identifier string, authors []string) []nostr.Filter {
	if len(authors) == 0 {
		return nil
	}
	a := make([]string, 0, len(authors))
	for _, pk := range authors {
		a = append(a, graph.NewCoordinate(pk, identifier).ATag())
	}
	slices.Sort(a)
	kinds := append(slices.Clone(actions.TargetKinds), actions.EventKinds...)
	return []nostr.Filter{{Kinds: kinds, Tags: nostr.TagMap{"a": slices.Compact(a)}}}
}

// collectActions checks the signatures the selection needs beyond the
// authors settle verified (the targets, then their authors' own actions on
// them) and selects the role-scoped events of res (SelectActions).
func collectActions(pool *relaypool.Pool, res *relaypool.FetchResult, identifier string, authors []string) ([]*nostr.Event, int) {
	coords := coordinateSet(identifier, authors)
	pool.VerifyWhere(res, MaxActionEvents, func(e *nostr.Event) bool {
		return actions.IsTarget(e.Kind) && namesAny(e, coords)
	})
	targetAuthor := map[string]string{}
	for _, e := range res.Events {
		if actions.IsTarget(e.Kind) && namesAny(e, coords) {
			targetAuthor[e.ID] = e.PubKey
		}
	}
	pool.VerifyWhere(res, MaxActionEvents, func(e *nostr.Event) bool {
		if _, ok := actions.ActionOf(e); !ok || !namesAny(e, coords) {
			return false
		}
		for _, id := range actions.TargetRefs(e) {
			if targetAuthor[id] == e.PubKey {
				return true
			}
		}
		return false
	})
	return SelectActions(res.Events, identifier, authors)
}

// SelectActions keeps, of verified events, the targets and role-scoped
// actions naming a coordinate of authors: newest first, at most
// MaxActionEvents, none over MaxActionEventBytes. It returns how many it
// dropped for those bounds.
func SelectActions(events []*nostr.Event, identifier string, authors []string) ([]*nostr.Event, int) {
	coords := coordinateSet(identifier, authors)
	var out []*nostr.Event
	dropped := 0
	for _, e := range events {
		if !actions.IsTarget(e.Kind) && !slices.Contains(actions.EventKinds, e.Kind) || !namesAny(e, coords) {
			continue
		}
		if len(e.String()) > MaxActionEventBytes {
			dropped++
			continue
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *nostr.Event) int {
		if graph.Newer(a, b) {
			return -1
		}
		if graph.Newer(b, a) {
			return 1
		}
		return 0
	})
	if len(out) > MaxActionEvents {
		dropped += len(out) - MaxActionEvents
		out = out[:MaxActionEvents]
	}
	return out, dropped
}

func coordinateSet(identifier string, authors []string) map[string]bool {
	out := make(map[string]bool, len(authors))
	for _, pk := range authors {
		out[graph.NewCoordinate(pk, identifier).ATag()] = true
	}
	return out
}

// namesAny reports whether e has an `a` tag naming one of coords.
func namesAny(e *nostr.Event, coords map[string]bool) bool {
	for _, t := range e.Tags {
		if len(t) >= 2 && t[0] == "a" && coords[t[1]] {
			return true
		}
	}
	return false
}
