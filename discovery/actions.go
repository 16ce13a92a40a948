package discovery

import (
	"context"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// Role-scoped events (statuses, labels, cover notes) and the issues,
// patches and pull requests they apply to are found through their `a` tag
// naming a component's coordinate. Anyone can publish them, and only some
// can change a result a membership change alters: the component's own
// authors' events (who can gain or lose a role), the targets those events
// name, and each such target's author's own events on it (always counted,
// so they only decide which event is newest). Only those get a signature
// check and are kept; an outsider's issue that no component author acted on
// has the same results before and after any change and is never read.
//
// Bounds: at most MaxActionEvents component events (newest first) and none
// over MaxActionEventBytes (nor a target that size); what those bounds
// leave out is counted as dropped, which refuses a write. Of a target
// author's own events only the newest status, subject and cover note and
// MaxOwnLabels label events per target are kept: older ones never decide a
// result, and a missing own label can only make a change look bigger.
const (
	MaxActionEvents     = 4096
	MaxActionEventBytes = cache.MaxEventBytes
	MaxOwnLabels        = 64
)

// ActionFilters ask, in the same request as a write's deletion round (no
// round of its own), for the role-scoped events of authors naming their
// coordinates under identifier (by author: strangers cannot crowd them out
// of a capped answer), and for the issues, patches, pull requests and
// role-scoped events of anyone naming those coordinates, at most
// MaxActionEvents (newest first) since anyone can publish those. A target
// a component event names that this second filter left out is asked by id
// (askMissingTargets); a target author's own later action it left out is
// not, and the component's event on that target then stays current: a
// missing own action can only make a change look bigger, never smaller.
func ActionFilters(identifier string, authors []string) []nostr.Filter {
	if len(authors) == 0 {
		return nil
	}
	a := make([]string, 0, len(authors))
	for _, pk := range authors {
		a = append(a, graph.NewCoordinate(pk, identifier).ATag())
	}
	slices.Sort(a)
	a = slices.Compact(a)
	members := slices.Compact(slices.Sorted(slices.Values(authors)))
	kinds := append(slices.Clone(actions.TargetKinds), actions.EventKinds...)
	out := []nostr.Filter{{Kinds: slices.Clone(actions.EventKinds), Authors: members, Tags: nostr.TagMap{"a": a}}}
	for _, part := range chunks(a, limitedChunk) {
		out = append(out, nostr.Filter{Kinds: kinds, Tags: nostr.TagMap{"a": part}, Limit: MaxActionEvents})
	}
	return out
}

// limitedChunk bounds the values of one filter that carries a limit: the
// pool never splits such a filter (the limit would change meaning), so it
// is cut here into filters that each stay far under relaypool.MaxREQBytes
// (a coordinate or an id is under 150 bytes), each with its own limit.
const limitedChunk = 256

// chunks cuts values into consecutive pieces of at most n.
func chunks(values []string, n int) [][]string {
	var out [][]string
	for len(values) > n {
		out = append(out, slices.Clone(values[:n]))
		values = values[n:]
	}
	if len(values) > 0 {
		out = append(out, slices.Clone(values))
	}
	return out
}

// TargetFilters ask for the targets ids by id, and for the role-scoped
// events on them naming one of authors' coordinates (their own authors'
// among them), at most MaxActionEvents.
func TargetFilters(identifier string, ids, authors []string) []nostr.Filter {
	a := make([]string, 0, len(authors))
	for _, pk := range authors {
		a = append(a, graph.NewCoordinate(pk, identifier).ATag())
	}
	slices.Sort(a)
	a = slices.Compact(a)
	out := []nostr.Filter{{IDs: ids}}
	for _, part := range chunks(ids, limitedChunk) {
		for _, coords := range chunks(a, limitedChunk) {
			out = append(out, nostr.Filter{Kinds: slices.Clone(actions.EventKinds), Tags: nostr.TagMap{"e": part, "a": coords}, Limit: MaxActionEvents})
		}
	}
	return out
}

// askMissingTargets asks res's relays, in one more round, for the targets
// that the component's role-scoped events name and that no relay returned
// (a capped or limited answer left them out), so such an event is never
// compared without its target; nothing is sent when none is missing.
func askMissingTargets(ctx context.Context, src Source, pool *relaypool.Pool, res *relaypool.FetchResult, identifier string, authors []string) *relaypool.FetchResult {
	ids := missingTargets(res, identifier, authors)
	if len(ids) == 0 {
		return res
	}
	src.nextRound()
	return pool.Ask(ctx, res, relayURLs(res), TargetFilters(identifier, ids, authors)...)
}

// missingTargets are the ids (at most MaxActionEvents, sorted) of the
// targets the component's role-scoped events in res name that no relay
// returned.
func missingTargets(res *relaypool.FetchResult, identifier string, authors []string) []string {
	coords, member := coordinateSet(identifier, authors), memberSet(authors)
	needed := map[string]bool{}
	for _, e := range res.Events {
		if isComponentAction(e, coords, member) {
			for _, id := range actions.TargetRefs(e) {
				needed[id] = true
			}
		}
	}
	for _, e := range res.Events {
		delete(needed, e.ID)
	}
	for id := range needed {
		if res.Holds(id) {
			delete(needed, id)
		}
	}
	if len(needed) == 0 {
		return nil
	}
	ids := sortedSet(needed)
	if len(ids) > MaxActionEvents {
		ids = ids[:MaxActionEvents]
	}
	return ids
}

// collectActions checks the signatures the selection needs beyond the
// authors settle verified (the targets the component's events name, then
// their authors' own events on them) and selects the role-scoped events
// of res (SelectActions).
func collectActions(pool *relaypool.Pool, res *relaypool.FetchResult, identifier string, authors []string) ([]*nostr.Event, int, []string) {
	coords, member := coordinateSet(identifier, authors), memberSet(authors)
	needed := map[string]bool{}
	for _, e := range res.Events {
		if isComponentAction(e, coords, member) {
			for _, id := range actions.TargetRefs(e) {
				needed[id] = true
			}
		}
	}
	if len(needed) == 0 {
		return SelectActions(res.Events, identifier, authors)
	}
	pool.VerifyWhere(res, MaxActionEvents, func(e *nostr.Event) bool { return actions.IsTarget(e.Kind) && needed[e.ID] })
	targetAuthor := map[string]string{}
	for _, e := range res.Events {
		if actions.IsTarget(e.Kind) && needed[e.ID] {
			targetAuthor[e.ID] = e.PubKey
		}
	}
	pool.VerifyWhere(res, MaxActionEvents, func(e *nostr.Event) bool {
		return ownAction(e, coords, targetAuthor) != ""
	})
	return SelectActions(res.Events, identifier, authors)
}

// MaxLeftOutNamed bounds how many left-out events SelectActions names.
const MaxLeftOutNamed = 10

// SelectActions keeps, of verified events, the role-scoped events of the
// component's authors naming one of their coordinates (newest first, at
// most MaxActionEvents, none over MaxActionEventBytes), the targets they
// name, and the targets' authors' own events on them (the newest status,
// subject and cover note, and MaxOwnLabels labels, per target; none over
// MaxActionEventBytes). It returns them newest first, how many of the
// component's events the bounds dropped and the ids of the first
// MaxLeftOutNamed of those. Only the component's own events count toward
// the bounds: a target is kept whatever its size (a stranger's big issue
// that a maintainer closed is compared, never a reason to refuse), and a
// stranger's oversized event is ignored.
func SelectActions(events []*nostr.Event, identifier string, authors []string) ([]*nostr.Event, int, []string) {
	coords, member := coordinateSet(identifier, authors), memberSet(authors)
	var comp []*nostr.Event
	dropped := 0
	var leftOut []string
	leave := func(e *nostr.Event) {
		dropped++
		if len(leftOut) < MaxLeftOutNamed {
			leftOut = append(leftOut, e.ID)
		}
	}
	for _, e := range events {
		if !isComponentAction(e, coords, member) {
			continue
		}
		if len(e.String()) > MaxActionEventBytes {
			leave(e)
			continue
		}
		comp = append(comp, e)
	}
	sortNewest(comp)
	if len(comp) > MaxActionEvents {
		for _, e := range comp[MaxActionEvents:] {
			leave(e)
		}
		comp = comp[:MaxActionEvents]
	}
	needed := map[string]bool{}
	for _, e := range comp {
		for _, id := range actions.TargetRefs(e) {
			needed[id] = true
		}
	}
	out := comp
	targetAuthor := map[string]string{}
	for _, e := range events {
		if !actions.IsTarget(e.Kind) || !needed[e.ID] || targetAuthor[e.ID] != "" {
			continue
		}
		targetAuthor[e.ID] = e.PubKey
		out = append(out, e)
	}
	// A target author's own events: newest first, so the first of each
	// kind of result per target is the one that can decide it.
	var own []*nostr.Event
	for _, e := range events {
		if !member[e.PubKey] && ownAction(e, coords, targetAuthor) != "" && len(e.String()) <= MaxActionEventBytes {
			own = append(own, e)
		}
	}
	sortNewest(own)
	kept := map[string]int{}
	for _, e := range own {
		k := ownAction(e, coords, targetAuthor)
		act, _ := actions.ActionOf(e)
		limit := 1
		if act == graph.ActionLabel {
			limit = MaxOwnLabels
		}
		if kept[k] < limit {
			kept[k]++
			out = append(out, e)
		}
	}
	sortNewest(out)
	return out, dropped, leftOut
}

// isComponentAction: a role-scoped event by one of the component's
// authors naming one of its coordinates.
func isComponentAction(e *nostr.Event, coords, member map[string]bool) bool {
	_, ok := actions.ActionOf(e)
	return ok && member[e.PubKey] && namesAny(e, coords)
}

// ownAction is, for a role-scoped event naming a coordinate by the author
// of a target it names, that target and its kind of result ("" when it is
// none): the key its per-target bound counts under.
func ownAction(e *nostr.Event, coords map[string]bool, targetAuthor map[string]string) string {
	act, ok := actions.ActionOf(e)
	if !ok || !namesAny(e, coords) {
		return ""
	}
	for _, id := range actions.TargetRefs(e) {
		if a := targetAuthor[id]; a != "" && a == e.PubKey {
			return id + "/" + string(act)
		}
	}
	return ""
}

func sortNewest(evs []*nostr.Event) {
	slices.SortFunc(evs, func(a, b *nostr.Event) int {
		if graph.Newer(a, b) {
			return -1
		}
		if graph.Newer(b, a) {
			return 1
		}
		return 0
	})
}

func memberSet(authors []string) map[string]bool {
	out := make(map[string]bool, len(authors))
	for _, pk := range authors {
		out[pk] = true
	}
	return out
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
