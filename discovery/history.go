package discovery

import (
	"context"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// The author's history: a relay that keeps the versions an addressable
// event replaced (most keep only the latest) can answer for an earlier
// version of an announcement that lost its role records, when the local
// cache has none (a fresh home, CI). Asked only by reads that need complete
// evidence (`repo health`, writes), only for suspects, in one round of at
// most MaxHistoryAuthors filters of MaxHistoryVersions events each.
const (
	MaxHistoryAuthors  = 8
	MaxHistoryVersions = 4
)

// HistorySuspects are the authors (sorted, at most MaxHistoryAuthors) whose
// latest announcement of identifier in events carries no role records while
// its `maintainers` tag lists somebody else, whom another author's role
// record names (so the repository has role records, and theirs may have
// been dropped), and for whom complete holds no earlier version.
func HistorySuspects(events, complete []*nostr.Event, identifier string) []string {
	latest := map[string]*nostr.Event{}
	for _, e := range events {
		if e.Kind == graph.KindAnnouncement && e.Tags.GetD() == identifier {
			if cur := latest[e.PubKey]; cur == nil || graph.Newer(e, cur) {
				latest[e.PubKey] = e
			}
		}
	}
	named := map[string]bool{}
	for author, e := range latest {
		for _, t := range e.Tags {
			if len(t) >= 2 && graph.IsRoleLetter(t[0]) && t[1] != author {
				named[t[1]] = true
			}
		}
	}
	known := map[string]bool{}
	for _, c := range complete {
		known[c.PubKey] = true
	}
	var out []string
	for author, e := range latest {
		if !named[author] || known[author] || graph.CountRoleRecords(e) > 0 || !listsSomebodyElse(e) {
			continue
		}
		out = append(out, author)
	}
	slices.Sort(out)
	if len(out) > MaxHistoryAuthors {
		out = out[:MaxHistoryAuthors]
	}
	return out
}

func listsSomebodyElse(e *nostr.Event) bool {
	for _, t := range e.Tags {
		if len(t) > 0 && t[0] == "maintainers" {
			for _, v := range t[1:] {
				if v != e.PubKey && nostr.IsValid32ByteHex(v) {
					return true
				}
			}
		}
	}
	return false
}

// HistoryFilters ask, for each suspect, for the versions of their
// announcement older than the latest one in events.
func HistoryFilters(events []*nostr.Event, identifier string, suspects []string) []nostr.Filter {
	var out []nostr.Filter
	for _, a := range suspects {
		var cur *nostr.Event
		for _, e := range events {
			if e.Kind == graph.KindAnnouncement && e.PubKey == a && e.Tags.GetD() == identifier && (cur == nil || graph.Newer(e, cur)) {
				cur = e
			}
		}
		if cur == nil || cur.CreatedAt == 0 {
			continue
		}
		until := cur.CreatedAt - 1
		out = append(out, nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{a},
			Tags: nostr.TagMap{"d": {identifier}}, Until: &until, Limit: MaxHistoryVersions})
	}
	return out
}

// EarlierComplete picks, per author, the newest of the verified earlier
// versions that the author's latest announcement in events lost role
// records against (graph.LostRoleRecords).
func EarlierComplete(events, earlier []*nostr.Event, identifier string) []*nostr.Event {
	latest := map[string]*nostr.Event{}
	for _, e := range events {
		if e.Kind == graph.KindAnnouncement && e.Tags.GetD() == identifier {
			if cur := latest[e.PubKey]; cur == nil || graph.Newer(e, cur) {
				latest[e.PubKey] = e
			}
		}
	}
	best := map[string]*nostr.Event{}
	for _, e := range earlier {
		cur := latest[e.PubKey]
		if graph.LostRoleRecords(e, cur) == nil {
			continue
		}
		if b := best[e.PubKey]; b == nil || graph.Newer(e, b) {
			best[e.PubKey] = e
		}
	}
	var out []*nostr.Event
	for _, e := range best {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *nostr.Event) int {
		if graph.Newer(a, b) {
			return -1
		}
		return 1
	})
	return out
}

// askHistory asks the relays that answered for the suspects' earlier
// versions (one round) and adds what it finds to v.LastComplete.
func askHistory(ctx context.Context, src Source, pool *relaypool.Pool, v *View) {
	suspects := HistorySuspects(v.Events, v.LastComplete, v.Coordinate().Identifier)
	if len(suspects) == 0 {
		return
	}
	filters := HistoryFilters(v.Events, v.Coordinate().Identifier, suspects)
	if len(filters) == 0 {
		return
	}
	src.nextRound()
	res := pool.Fetch(ctx, relayURLs(v.Fetch), filters...)
	v.LastComplete = append(v.LastComplete, EarlierComplete(v.Events, res.Events, v.Coordinate().Identifier)...)
}

// MaxCompleteSubjects bounds the people the last complete versions add to
// a read's reach (RoleSubjects).
const MaxCompleteSubjects = 32

// RoleSubjects are the authors of the last complete versions and the
// subjects of their role records (sorted, without duplicates, at most
// MaxCompleteSubjects): the people a read reaches beyond its seeds so that
// a republish that dropped role records hides nobody from the report and
// the repair.
func RoleSubjects(complete []*nostr.Event) []string {
	set := map[string]bool{}
	for _, e := range complete {
		set[e.PubKey] = true
		for _, t := range e.Tags {
			if len(t) >= 2 && graph.IsRoleLetter(t[0]) && nostr.IsValid32ByteHex(t[1]) {
				set[t[1]] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for pk := range set {
		out = append(out, pk)
	}
	slices.Sort(out)
	if len(out) > MaxCompleteSubjects {
		out = out[:MaxCompleteSubjects]
	}
	return out
}

// verifyNamedByComplete checks the signatures of the events res holds by
// the people the last complete versions name whom reach did not cover (a
// republish that dropped its role records leaves them unreached; the
// first read that sees it learns the complete version only when it stores
// the answer), and takes them into v.Events. It reports whether any was
// added.
func verifyNamedByComplete(pool *relaypool.Pool, res *relaypool.FetchResult, v *View, reach []string) bool {
	var extra []string
	for _, pk := range RoleSubjects(v.LastComplete) {
		if !slices.Contains(reach, pk) {
			extra = append(extra, pk)
		}
	}
	if len(extra) == 0 || !pool.VerifyAuthors(res, extra) {
		return false
	}
	v.Events = InScope(res.Events, v.Coordinate().Identifier)
	return true
}
