package discovery

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// MaxMany bounds the repositories one LoadMany reads: each adds its
// filters to every relay's request, so a project naming many repositories
// cannot grow one read without end. The caller reads the first MaxMany
// and says the rest were not read.
const MaxMany = 16

// Many is one repository of a LoadMany: its View when it resolved, else
// the reason (*NotFound, *Incomplete, *Stale; View is then what was read
// when there is one).
type Many struct {
	Selection gitstate.Selection
	View      *View
	Err       error
}

// ManyBound: LoadMany was asked for more than MaxMany repositories.
type ManyBound struct{ Asked int }

func (e *ManyBound) Error() string {
	return fmt.Sprintf("%d repositories asked for in one read, more than %d", e.Asked, MaxMany)
}

// LoadMany is Load for several repositories read together (a project's
// member repositories): every round of the discovery is ONE request per
// relay carrying the filters of every repository, so reading n
// repositories costs the rounds of reading one. The rounds are Load's
// rounds for a read: the first (relaypool.DiscoverMany: each repository's
// same-identifier announcements and states, its selected author's by
// author, and the deletions of the coordinates known); by author to relays
// whose answer was cut, while the authors reached grow (at most
// MaxAuthorRounds); the relays the selected announcements list that were
// not asked (unless src.Pinned; at most MaxAnnouncedRelays for all the
// repositories together); the profiles of everyone reached (when
// src.People is set), alongside; and the deletions of the reached authors'
// events, which Complete evidence always asks, with the role-scoped
// events (and any target they name that was left out, in one more round),
// and a plain read only when state events were found. src.Write is not
// used: LoadMany is a read.
//
// The result has one entry per selection, in order. A repository the
// relays hold nothing of is *NotFound; with Complete evidence a relay that
// did not answer makes each repository *Incomplete, and a cached newer
// version *Stale. Errors that concern the whole read (*NoRelays,
// *ManyBound, a *CacheError offline) are returned alone.
func LoadMany(ctx context.Context, src Source, sels []gitstate.Selection, need Evidence, viewer string, now int64) ([]Many, error) {
	if len(sels) > MaxMany {
		return nil, &ManyBound{Asked: len(sels)}
	}
	out := make([]Many, len(sels))
	if len(sels) == 0 {
		return out, nil
	}
	if src.Offline {
		for i, sel := range sels {
			v, err := Load(ctx, src, sel, nil, need, viewer, now)
			var ce *CacheError
			if errors.As(err, &ce) {
				return nil, err
			}
			out[i] = Many{Selection: sel, View: v, Err: err}
		}
		return out, nil
	}
	if len(src.Relays) == 0 {
		return nil, &NoRelays{Selection: sels[0]}
	}
	src.Write = false
	pool := src.Pool()
	defer pool.Close()
	pool.DeferSignatures()
	seeds := append([]string{viewer}, src.Reach...)
	repos := make([]*manyRepo, len(sels))
	store := openForFetch(src)
	var coords []graph.Coordinate
	var also []nostr.Filter
	for i, sel := range sels {
		r := &manyRepo{sel: sel.Coordinate, asked: map[string]bool{}}
		known := CachedCoordinates(store, r.sel, seeds...)
		coords = append(coords, r.sel)
		coords = append(coords, known...)
		first := []string{r.sel.Pubkey}
		for _, c := range known {
			first = append(first, c.Pubkey)
		}
		for _, pk := range append(first, seeds...) {
			if pk != "" {
				r.asked[pk] = true
			}
		}
		also = append(also, relaypool.AuthorFilter(r.sel.Identifier, sortedSet(r.asked)))
		repos[i] = r
	}
	if store != nil {
		store.Close()
	}
	res := pool.DiscoverMany(ctx, src.Relays, coords, also...)
	settleMany(pool, res, repos, seeds)
	res = coverReachedMany(ctx, src, pool, res, repos, seeds)
	people := startPeople(ctx, src, pool, src.Relays, reachedMany(repos), now)
	if !src.Pinned {
		var extra []string
		for _, r := range repos {
			for _, u := range NewAnnouncedRelays(InScope(res.Events, r.sel.Identifier), r.sel, src.Relays) {
				if !slices.Contains(extra, u) && len(extra) < MaxAnnouncedRelays {
					extra = append(extra, u)
				}
			}
		}
		if len(extra) > 0 {
			src.nextRound()
			res = pool.DiscoverMore(ctx, res, extra)
			settleMany(pool, res, repos, seeds)
			res = coverReachedMany(ctx, src, pool, res, repos, seeds)
		}
	}
	if need == Complete && res.Complete {
		var filters []nostr.Filter
		for _, r := range repos {
			filters = append(filters, ActionFilters(r.sel.Identifier, r.reach)...)
		}
		src.nextRound()
		res = pool.CompleteDeletions(ctx, res, reachedMany(repos), filters...)
		settleMany(pool, res, repos, seeds)
		var targets []nostr.Filter
		for _, r := range repos {
			if ids := missingTargets(res, r.sel.Identifier, r.reach); len(ids) > 0 {
				targets = append(targets, TargetFilters(r.sel.Identifier, ids, r.reach)...)
			}
		}
		if len(targets) > 0 {
			src.nextRound()
			res = pool.Ask(ctx, res, relayURLs(res), targets...)
		}
	} else {
		var authors []string
		for _, r := range repos {
			authors = append(authors, StateAuthors(res.Events, r.sel.Identifier, r.reach)...)
		}
		if len(authors) > 0 {
			src.nextRound()
			res = pool.CompleteDeletions(ctx, res, slices.Compact(slices.Sorted(slices.Values(authors))))
			settleMany(pool, res, repos, seeds)
		}
	}
	relays := relayURLs(res)
	views := make([]*View, len(repos))
	var everyone []string
	for i, r := range repos {
		v := &View{Selection: sels[i], Now: now, Viewer: viewer, Relays: slices.Clone(relays), Fetch: res,
			Events: InScope(res.Events, r.sel.Identifier)}
		if need == Complete && res.Complete {
			v.Actions, v.ActionsDropped, v.ActionsOverLimit = collectActions(pool, res, r.sel.Identifier, r.reach)
		}
		everyone = append(everyone, graph.Reachable(v.Events, r.sel, seeds...)...)
		views[i] = v
	}
	if people != nil {
		everyone = boundPeople(slices.Compact(slices.Sorted(slices.Values(everyone))))
		profiles := people.profiles(ctx, src, everyone, now)
		for i, v := range views {
			mine := map[string]Profile{}
			for _, pk := range graph.Reachable(v.Events, repos[i].sel, seeds...) {
				if p, ok := profiles[pk]; ok {
					mine[pk] = p
				}
			}
			v.Profiles = mine
		}
	}
	newer := make([][]*nostr.Event, len(views))
	store, err := openForCompare(src, need)
	if err != nil {
		return nil, err
	}
	if store != nil {
		var keep []*nostr.Event
		for _, v := range views {
			keep = append(keep, v.Events...)
			keep = append(keep, v.Actions...)
		}
		if err := store.PutVerified(res.Verified(keep)...); err != nil {
			src.warn(fmt.Sprintf("could not update the local cache (%v); --offline will not see this read", err))
		}
		for i, v := range views {
			newer[i] = NewerKnown(store, v.Coordinate().Identifier, v.Events)
			v.LastComplete = lastComplete(src, store, v.Coordinate().Identifier)
			pin(store, v, seeds)
		}
		store.Close()
	}
	if need == Complete && res.Complete {
		askHistoryMany(ctx, src, pool, views) // as Load does: only for suspects, one round for all
	}
	for i, v := range views {
		out[i] = Many{Selection: sels[i], View: v}
		switch {
		case need == Complete && !v.Complete():
			out[i].Err = &Incomplete{View: v}
		case need == Complete && len(newer[i]) > 0:
			out[i].Err = &Stale{View: v, Newer: newer[i]}
		case !HasAnnouncementOrDeletion(v.Events, v.Coordinate()):
			if v.Answered() == 0 {
				out[i].Err = &Incomplete{View: v}
			} else {
				out[i].Err = &NotFound{View: v}
			}
		default:
			v.resolve()
		}
	}
	return out, nil
}

// manyRepo is one repository's part of a LoadMany: its coordinate, the
// authors asked for by author and the authors reached.
type manyRepo struct {
	sel   graph.Coordinate
	asked map[string]bool
	reach []string
}

// settleMany settles each repository's reached authors in res.
func settleMany(pool *relaypool.Pool, res *relaypool.FetchResult, repos []*manyRepo, seeds []string) {
	for _, r := range repos {
		r.reach = settle(pool, res, r.sel, seeds)
	}
}

// reachedMany is every repository's reached authors, once each, sorted.
func reachedMany(repos []*manyRepo) []string {
	var out []string
	for _, r := range repos {
		out = append(out, r.reach...)
	}
	return slices.Compact(slices.Sorted(slices.Values(out)))
}

// coverReachedMany is coverReached for every repository at once: each
// round asks the relays whose answer was cut, in one request each, for
// the reached authors not asked by author yet of every repository.
func coverReachedMany(ctx context.Context, src Source, pool *relaypool.Pool, res *relaypool.FetchResult, repos []*manyRepo, seeds []string) *relaypool.FetchResult {
	for round := 0; ; round++ {
		capped := relaypool.CappedRelays(res)
		if len(capped) == 0 {
			return res
		}
		var filters []nostr.Filter
		fresh := make([][]string, len(repos))
		for i, r := range repos {
			for _, pk := range r.reach {
				if !r.asked[pk] {
					fresh[i] = append(fresh[i], pk)
				}
			}
			filters = append(filters, relaypool.AuthorFilters(r.sel.Identifier, fresh[i])...)
		}
		if len(filters) == 0 {
			return res
		}
		if round == MaxAuthorRounds {
			for i := range res.Relays {
				if r := &res.Relays[i]; r.Capped && r.Status == relaypool.StatusOK {
					r.Status = relaypool.StatusFailed
					r.Reason = fmt.Sprintf("its answers are cut (capped) and the authors to ask it for by name were still growing after %d rounds", MaxAuthorRounds)
				}
			}
			res.Complete = false
			return res
		}
		for i, r := range repos {
			for _, pk := range fresh[i] {
				r.asked[pk] = true
			}
		}
		src.nextRound()
		res = pool.Ask(ctx, res, capped, filters...)
		settleMany(pool, res, repos, seeds)
	}
}

// askHistoryMany is askHistory for every repository of a LoadMany at once:
// one round asks the relays that answered for every repository's suspects'
// earlier versions, so a member repository's role-records-dropped finding
// is reported by `project health` as `repo health` reports it.
func askHistoryMany(ctx context.Context, src Source, pool *relaypool.Pool, views []*View) {
	var filters []nostr.Filter
	for _, v := range views {
		id := v.Coordinate().Identifier
		if suspects := HistorySuspects(v.Events, v.LastComplete, id); len(suspects) > 0 {
			filters = append(filters, HistoryFilters(v.Events, id, suspects)...)
		}
	}
	if len(filters) == 0 || len(views) == 0 {
		return
	}
	src.nextRound()
	res := pool.Fetch(ctx, relayURLs(views[0].Fetch), filters...)
	for _, v := range views {
		v.LastComplete = append(v.LastComplete, EarlierComplete(v.Events, res.Events, v.Coordinate().Identifier)...)
	}
}
