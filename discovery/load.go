package discovery

import (
	"context"
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// Source is where a discovery reads from and what it may do there. The
// caller decides the relays (flags, environment, configuration, hints); the
// pipeline only asks them.
type Source struct {
	// Relays are the relays to ask, normalized.
	Relays []string
	// Pinned is true when the user named the relays (--relay): relays an
	// announcement names are not asked then.
	Pinned bool
	// Offline answers from the cache alone.
	Offline bool
	// Pool opens the relay pool for one discovery; the pipeline closes it.
	Pool func() *relaypool.Pool
	// OpenCache opens the local cache; nil, or an error, means no cache.
	// The cache is held only around its own reads and writes, never while
	// waiting on relays: bbolt locks the file, and another roster process
	// must not wait on our relays.
	OpenCache func() (*cache.Cache, error)
	// Warn reports a problem that does not stop the read (a cache that
	// could not be opened or written).
	Warn func(string)
	// NextRound is called when discovery starts another round of requests
	// (for a progress display); nil is fine.
	NextRound func()
	// Publishes says the caller will publish from this read (a write) and
	// keep what it publishes in the cache: then a cache opened read-only
	// is a *CacheError too, before anything is signed.
	Publishes bool
	// People, when set, reads the kind 0 profiles of the people the
	// resolution reaches (profiles.go); nil reads none.
	People *People
	// Write makes the discovery a write's (with Complete evidence): it asks
	// everyone's relays, in rounds until no new relay appears, within
	// MaxWriteRelays and MaxWriteRounds (rounds.go).
	Write bool
	// Reach names, beyond the selected author and the viewer, the pubkeys
	// whose events and deletions a complete read must cover because the
	// caller will look at them: a write's subject and new lead (preflight
	// resolves their own same-identifier repositories). Authors nobody
	// named and nobody reached (graph.Reachable) are not asked about.
	Reach []string
}

// Load runs the read pipeline for sel in checkout co (nil outside one) at
// time now. With Complete evidence, a relay that did not answer is an
// *Incomplete error before anything else is decided. A cache that cannot
// be read offline is a *CacheError.
func Load(ctx context.Context, src Source, sel gitstate.Selection, co *gitstate.Checkout, need Evidence, viewer string, now int64) (*View, error) {
	v := &View{Selection: sel, Checkout: co, Offline: src.Offline, Now: now, Viewer: viewer}
	var err error
	if v.Offline {
		err = readCached(src, v)
	} else {
		err = fetch(ctx, src, v, need)
	}
	if err != nil {
		return nil, err
	}
	if need == Complete && !v.Complete() {
		return nil, &Incomplete{View: v}
	}
	if !HasAnnouncementOrDeletion(v.Events, v.Coordinate()) {
		if !v.Offline && v.Answered() == 0 {
			// Nothing was searched: say the relays failed, not "not found".
			return nil, &Incomplete{View: v}
		}
		return nil, &NotFound{View: v}
	}
	v.resolve()
	return v, nil
}

// resolve resolves v.Events: the graph, then the state.
func (v *View) resolve() {
	v.Resolution = graph.Resolve(v.Events, v.Coordinate(), v.Now, graph.Options{Viewer: v.Viewer})
	v.RoleLosses = graph.RoleLosses(v.Resolution, v.Events, v.LastComplete)
	v.StateEvent, v.State = graph.SelectState(v.Events, v.Resolution), nil
	if v.StateEvent != nil {
		// An unparseable state event is reported as no state rather than
		// failing the whole read.
		if st, err := graph.ParseState(v.StateEvent); err == nil {
			v.State = st
		} else {
			v.StateEvent = nil
		}
	}
}

// Including returns a copy of v resolved again with events added, for
// instance the events the relays returned when read back by id after a
// publish. A relay that caches identical filters (some answer a repeated
// filter from a cache for a second or more) may answer a repeated discovery
// with its earlier answer, without the event just published; a read by id
// is a different filter, so what it returned is fresh. The events must be
// verified (relaypool verified the read-back's).
func (v *View) Including(events []*nostr.Event) *View {
	c := *v
	c.Events = InScope(append(append([]*nostr.Event(nil), v.Events...), events...), v.Coordinate().Identifier)
	c.resolve()
	return &c
}

// readCached answers from the cache alone.
func readCached(src Source, v *View) error {
	if src.OpenCache == nil {
		return &CacheError{Doing: "--offline needs the local cache", Err: fmt.Errorf("no cache")}
	}
	c, err := src.OpenCache()
	if err != nil {
		return &CacheError{Doing: "--offline needs the local cache", Err: err}
	}
	defer c.Close()
	id := v.Coordinate().Identifier
	evts, err := c.Query(nostr.Filter{Kinds: []int{graph.KindAnnouncement, graph.KindState}, Tags: nostr.TagMap{"d": {id}}})
	if err != nil {
		return &CacheError{Doing: "read the local cache", Err: err}
	}
	for _, f := range DeletionFilters(evts, v.Coordinate(), append([]string{v.Viewer}, src.Reach...)...) {
		dels, err := c.Query(f)
		if err != nil {
			return &CacheError{Doing: "read the local cache", Err: err}
		}
		evts = append(evts, dels...)
	}
	v.Events = InScope(evts, id)
	v.Relays = []string{}
	v.LastComplete = lastComplete(src, c, id)
	readCachedPeople(c, src, v)
	pin(c, v, append([]string{v.Viewer}, src.Reach...))
	return nil
}

// pin keeps the view's repository in the cache (cache.Pin): the
// announcements, states and deletions of the people it reaches from the
// selected author and seeds, not same-identifier events of unrelated keys.
// A read of another repository, however large its people's events, then
// cannot evict what --offline and the stale-relays guard need.
func pin(store *cache.Cache, v *View, seeds []string) {
	sel := v.Coordinate()
	authors := map[string]bool{sel.Pubkey: true}
	for _, pk := range graph.Reachable(v.Events, sel, seeds...) {
		authors[pk] = true
	}
	var ids []string
	for _, e := range v.Events {
		if authors[e.PubKey] {
			ids = append(ids, e.ID)
		}
	}
	if len(ids) > 0 {
		store.Pin(sel.ATag(), ids...)
	}
}

// fetch asks every relay once, in parallel, and when the selected
// announcement names relays not yet asked, asks only those in one more round
// (a write: everyone's relays, in rounds until none is new; rounds.go).
// Writes and health checks (Complete evidence) also ask, in one more round,
// for deletions of every other author's events. Verified events are written
// to the cache (with the pool's proof of verification); a cache that cannot
// be opened costs a warning, not the read.
func fetch(ctx context.Context, src Source, v *View, need Evidence) error {
	if len(src.Relays) == 0 {
		return &NoRelays{Selection: v.Selection}
	}
	pool := src.Pool()
	defer pool.Close()
	// Signatures are checked only for the events of authors who can change
	// the resolution; the rest (same-identifier spam) cost an id hash.
	pool.DeferSignatures()
	id := v.Coordinate().Identifier
	seeds := append([]string{v.Viewer}, src.Reach...)
	// Coordinates the cache already knows get their deletions asked in the
	// same single round.
	var known []graph.Coordinate
	if store := openForFetch(src); store != nil {
		// The people an announcement's last complete version names are
		// reached too: a republish that dropped its role records must not
		// hide them from the read that reports it, or from its repair.
		if lc, err := store.LastComplete(id); err == nil {
			seeds = append(seeds, RoleSubjects(lc)...)
		}
		known = CachedCoordinates(store, v.Coordinate(), seeds...)
		store.Close()
	}
	coords := append([]graph.Coordinate{v.Coordinate()}, known...)
	// The authors known to matter (the selected one, the named people, the
	// ones the cache reaches) are asked by author as well: the
	// same-identifier filter names no author, and strangers can crowd
	// anything out of a relay's capped answer to it.
	asked := map[string]bool{}
	first := []string{v.Coordinate().Pubkey}
	for _, c := range known {
		first = append(first, c.Pubkey)
	}
	for _, pk := range append(first, seeds...) {
		if pk != "" {
			asked[pk] = true
		}
	}
	also := append([]nostr.Filter{relaypool.AuthorFilter(id, sortedSet(asked))}, src.relayListFilters(v.Viewer)...)
	res := pool.DiscoverAlso(ctx, src.Relays, id, coords, also...)
	reach := settle(pool, res, v.Coordinate(), seeds)
	res, reach = coverReached(ctx, src, pool, res, v.Coordinate(), seeds, reach, asked)
	// Profiles of the people reached so far, asked while the follow-up
	// rounds run.
	people := startPeople(ctx, src, pool, src.Relays, reach, v.Now)
	// A newly learned relay costs one more round (a write's, until no new
	// one appears: rounds.go), only then, and never when the user named
	// the relays.
	res, reach, err := askMoreRelays(ctx, src, pool, res, v, seeds, reach, asked)
	if err != nil {
		return err
	}
	if need == Complete && res.Complete {
		// Only the authors who can change the resolution: announcements
		// from unrelated keys under the same identifier cost their parse.
		src.nextRound()
		res = pool.CompleteDeletions(ctx, res, reach, ActionFilters(id, reach)...)
		reach = settle(pool, res, v.Coordinate(), seeds)
		res = askMissingTargets(ctx, src, pool, res, id, reach)
		v.Actions, v.ActionsDropped, v.ActionsOverLimit = collectActions(pool, res, id, reach)
	} else if authors := StateAuthors(res.Events, id, reach); len(authors) > 0 {
		// A plain read resolves the state as writes do
		// (graph.EligibleStates): the deletions of the state authors'
		// events, by address and by id, are asked in one more round, so
		// a state its author deleted is never shown as the repository's.
		res = pool.CompleteDeletions(ctx, res, authors)
		reach = settle(pool, res, v.Coordinate(), seeds)
	}
	v.Relays = make([]string, 0, len(res.Relays))
	for _, r := range res.Relays {
		v.Relays = append(v.Relays, r.URL)
	}
	v.Fetch = res
	v.Events = InScope(res.Events, id)
	people.finish(ctx, src, v, seeds)
	var newer []*nostr.Event
	store, err := openForCompare(src, need)
	if err != nil {
		return err
	}
	if store != nil {
		// The pool checked every signature; its proofs let the cache store
		// them without checking each a second time.
		if err := store.PutVerified(res.Verified(append(slices.Clone(v.Events), v.Actions...))...); err != nil {
			src.warn(fmt.Sprintf("could not update the local cache (%v); --offline will not see this read", err))
		}
		newer = NewerKnown(store, id, v.Events)
		if len(newer) > 0 && deletionsOfNewer(ctx, pool, res, store, newer) {
			newer = NewerKnown(store, id, v.Events)
		}
		v.LastComplete = lastComplete(src, store, id)
		if verifyNamedByComplete(pool, res, v, reach) {
			if err := store.PutVerified(res.Verified(v.Events)...); err != nil {
				src.warn(fmt.Sprintf("could not update the local cache (%v); --offline will not see this read", err))
			}
		}
		pin(store, v, seeds)
		store.Close()
	}
	if need == Complete && len(newer) > 0 {
		return &Stale{View: v, Newer: newer}
	}
	if need == Complete && res.Complete {
		askHistory(ctx, src, pool, v) // history.go: only for suspects, one round
	}
	return nil
}

// lastComplete reads the cache's last complete versions of the
// identifier's announcements (cache.Cache.LastComplete); a cache that
// cannot be read costs a warning and reports no damage.
func lastComplete(src Source, store *cache.Cache, identifier string) []*nostr.Event {
	evts, err := store.LastComplete(identifier)
	if err != nil {
		src.warn(fmt.Sprintf("could not read the earlier versions of announcements in the local cache (%v)", err))
		return nil
	}
	return evts
}

// deletionsOfNewer asks the relays, in one more round, for their authors'
// NIP-09 deletions of the newer cached events by id, and keeps the verified
// ones in the cache: a version its author deleted is not one a lagging
// relay hides (base-in-the-future tells the user to delete it just so). It
// reports whether any was kept.
func deletionsOfNewer(ctx context.Context, pool *relaypool.Pool, res *relaypool.FetchResult, store *cache.Cache, newer []*nostr.Event) bool {
	ids, authors := make([]string, 0, len(newer)), map[string]bool{}
	for _, e := range newer {
		ids = append(ids, e.ID)
		authors[e.PubKey] = true
	}
	who := sortedSet(authors)
	got := pool.Ask(ctx, res, relaysOf(res), nostr.Filter{Kinds: []int{graph.KindDeletion}, Authors: who, Tags: nostr.TagMap{"e": ids}})
	// The answer's signatures are checked for these authors only (the
	// pool defers the rest), which makes their events part of it.
	pool.VerifyAuthors(got, who)
	var dels []*nostr.Event
	for _, e := range got.Events {
		if e.Kind == graph.KindDeletion && authors[e.PubKey] {
			dels = append(dels, e)
		}
	}
	kept := got.Verified(dels)
	return len(kept) > 0 && store.PutVerified(kept...) == nil
}

// relaysOf are the relays res asked.
func relaysOf(res *relaypool.FetchResult) []string {
	out := make([]string, 0, len(res.Relays))
	for _, r := range res.Relays {
		out = append(out, r.URL)
	}
	return out
}

// NewerKnown are the events the cache holds (verified before, roster's own
// publications among them) that are newer versions of an address the
// relays just answered with an older version of. A relay that answers a
// repeated filter from a cache (some do, for a second) or lags serves the
// version a write replaced: a change built on it would silently drop the
// newer one, so a read that needs complete evidence is Stale instead.
func NewerKnown(store *cache.Cache, identifier string, events []*nostr.Event) []*nostr.Event {
	latest := map[string]*nostr.Event{}
	for _, e := range events {
		if e.Kind != graph.KindAnnouncement && e.Kind != graph.KindState {
			continue
		}
		k := graph.Coordinate{Kind: e.Kind, Pubkey: e.PubKey, Identifier: identifier}.ATag()
		if cur := latest[k]; cur == nil || graph.Newer(e, cur) {
			latest[k] = e
		}
	}
	if len(latest) == 0 {
		return nil
	}
	known, err := store.Query(nostr.Filter{Kinds: []int{graph.KindAnnouncement, graph.KindState}, Tags: nostr.TagMap{"d": {identifier}}})
	if err != nil {
		return nil
	}
	var out []*nostr.Event
	for _, c := range known {
		k := graph.Coordinate{Kind: c.Kind, Pubkey: c.PubKey, Identifier: identifier}.ATag()
		if cur := latest[k]; cur != nil && c.ID != cur.ID && graph.Newer(c, cur) && !deletedByAuthor(store, c) {
			out = append(out, c)
		}
	}
	return out
}

// settle checks the signatures of the events res holds for every author
// graph.Reachable reaches from sel and seeds, following names only through
// verified announcements (a forged "latest" announcement cannot hide an
// author), and returns those authors. Events of other authors stay
// unverified, out of res.Events: they cannot change the resolution.
func settle(pool *relaypool.Pool, res *relaypool.FetchResult, sel graph.Coordinate, seeds []string) []string {
	done := map[string]bool{}
	for {
		reach := graph.Reachable(InScope(res.Events, sel.Identifier), sel, seeds...)
		var fresh []string
		for _, a := range reach {
			if !done[a] {
				done[a] = true
				fresh = append(fresh, a)
			}
		}
		if len(fresh) == 0 {
			return reach
		}
		pool.VerifyAuthors(res, fresh)
	}
}

// MaxAuthorRounds bounds the rounds coverReached sends: each follows the
// role records one step further from the authors already asked.
const MaxAuthorRounds = 8

// coverReached asks, by author, for the events of every reached author not
// asked by author yet, round by round as the answers reach more, of the
// relays whose answer to the same-identifier filter was possibly cut
// (relaypool.CappedRelays): their answer to it is not evidence that a
// reached author has no announcement, state or deletion. Relays that
// answered it whole need nothing more. Past MaxAuthorRounds the result is
// incomplete, each capped relay reported failed with the reason. asked
// gains the authors asked.
func coverReached(ctx context.Context, src Source, pool *relaypool.Pool, res *relaypool.FetchResult, sel graph.Coordinate, seeds, reach []string, asked map[string]bool) (*relaypool.FetchResult, []string) {
	for round := 0; ; round++ {
		capped := relaypool.CappedRelays(res)
		if len(capped) == 0 {
			return res, reach
		}
		var fresh []string
		for _, pk := range reach {
			if !asked[pk] {
				fresh = append(fresh, pk)
			}
		}
		if len(fresh) == 0 {
			return res, reach
		}
		if round == MaxAuthorRounds {
			// The capped relays' evidence stays incomplete, and says why.
			for i := range res.Relays {
				if r := &res.Relays[i]; r.Capped && r.Status == relaypool.StatusOK {
					r.Status = relaypool.StatusFailed
					r.Reason = fmt.Sprintf("its answers are cut (capped) and the authors to ask it for by name were still growing after %d rounds", MaxAuthorRounds)
				}
			}
			res.Complete = false
			return res, reach
		}
		for _, pk := range fresh {
			asked[pk] = true
		}
		src.nextRound()
		res = pool.Ask(ctx, res, capped, relaypool.AuthorFilters(sel.Identifier, fresh)...)
		reach = settle(pool, res, sel, seeds)
	}
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (s Source) nextRound() {
	if s.NextRound != nil {
		s.NextRound()
	}
}

func (s Source) warn(msg string) {
	if s.Warn != nil {
		s.Warn(msg)
	}
}

// openForFetch opens the cache a network read writes to. The cache is an
// accelerator: when it cannot be opened the read goes on without it, after
// a warning that says how to fix it.
// openForCompare opens the cache a read writes to and, with Complete
// evidence, compares the relays' answer with (NewerKnown). For a write the
// cache is then a safety input: one that cannot be opened (or, when the
// caller publishes, written) is a CacheError, never a silently skipped
// comparison. A read goes on without it, warned.
func openForCompare(src Source, need Evidence) (*cache.Cache, error) {
	if src.OpenCache == nil || need != Complete {
		return openForFetch(src), nil
	}
	c, err := src.OpenCache()
	if err != nil {
		return nil, &CacheError{Doing: "a change compares the relays' answer with what this machine verified before, in the local cache", Err: err}
	}
	if ro := c.ReadOnly(); ro != nil && src.Publishes {
		// What a write publishes is kept in the cache, so the next write
		// knows it even from a relay that still serves the version it
		// replaced: a cache that cannot keep it is refused before
		// anything is signed.
		_ = c.Close()
		return nil, &CacheError{Doing: "a change keeps what it publishes in the local cache (to compare later relay answers with)", Err: ro}
	}
	return c, nil
}

func openForFetch(src Source) *cache.Cache {
	if src.OpenCache == nil {
		return nil
	}
	c, err := src.OpenCache()
	if err != nil {
		src.warn(fmt.Sprintf("%v; reading without the local cache", err))
		return nil
	}
	return c
}

// CachedCoordinates are the coordinates of the other same-identifier
// authors the cache already knows who can change the resolution of sel
// (graph.Reachable from sel and seeds: the viewer, Source.Reach), so their deletions are asked in
// the first round. Unrelated announcements in the cache add nothing.
func CachedCoordinates(c *cache.Cache, sel graph.Coordinate, seeds ...string) []graph.Coordinate {
	if c == nil {
		return nil
	}
	evts, err := c.Query(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Tags: nostr.TagMap{"d": {sel.Identifier}}})
	if err != nil {
		return nil
	}
	var out []graph.Coordinate
	for _, pk := range graph.Reachable(evts, sel, seeds...) {
		if pk != sel.Pubkey {
			out = append(out, graph.NewCoordinate(pk, sel.Identifier))
		}
	}
	return out
}

// Again reads prev's relays once more in ONE round (relaypool's Refetch:
// each relay gets one request carrying every filter prev's rounds asked)
// and resolves the fresh answer alone at time now, with Complete evidence.
// It is how a write rechecks before signing and re-reads after
// publishing without repeating every round of the discovery: anything
// that would have needed another round (a relay newly named, an author
// newly reachable) comes from an announcement that changed, which the
// recheck refuses and the re-read's comparison with the preview reports.
// A prev read offline has nothing to ask again: *CacheError.
//
// also are more filters for the same request: the re-read after publishing
// carries the read-back (the event by id and by address,
// relaypool.DeliverOptions.ReadBack), so reading back costs no round of its
// own. Pubkeys a filter of also names in Authors are reached like the
// viewer, so what also asks for by author is verified. With *Incomplete or
// *NotFound the view comes back too, so a caller can still tell what each
// relay answered (the read-back's per-relay result).
func Again(ctx context.Context, src Source, prev *View, now int64, also ...nostr.Filter) (*View, error) {
	if prev.Offline || prev.Fetch == nil {
		return nil, &CacheError{Doing: "ask the relays again", Err: fmt.Errorf("the earlier read was not a relay read")}
	}
	pool := src.Pool()
	defer pool.Close()
	pool.DeferSignatures()
	id := prev.Coordinate().Identifier
	res := pool.Refetch(ctx, prev.Fetch, prev.Relays, also...)
	if prev.Search != nil && len(prev.Search.Evidence) > 0 {
		// An evidence-only relay that answered the first time and not now
		// leaves the evidence as complete as it was without it.
		var ev []string
		for _, l := range prev.Search.Evidence {
			ev = append(ev, l.URL)
		}
		res = dropUnanswered(res, ev, &RelaySearch{})
	}
	seeds := append(append([]string{prev.Viewer}, src.Reach...), RoleSubjects(prev.LastComplete)...)
	for _, f := range also {
		seeds = append(seeds, f.Authors...)
	}
	reach := settle(pool, res, prev.Coordinate(), seeds)
	v := &View{Selection: prev.Selection, Checkout: prev.Checkout, Now: now, Viewer: prev.Viewer, Profiles: prev.Profiles,
		Relays: append([]string(nil), prev.Relays...), Fetch: res, Events: InScope(res.Events, id)}
	v.Actions, v.ActionsDropped, v.ActionsOverLimit = collectActions(pool, res, id, reach)
	var newer []*nostr.Event
	store, err := openForCompare(src, Complete)
	if err != nil {
		return nil, err
	}
	if store != nil {
		if err := store.PutVerified(res.Verified(append(slices.Clone(v.Events), v.Actions...))...); err != nil {
			src.warn(fmt.Sprintf("could not update the local cache (%v); --offline will not see this read", err))
		}
		newer = NewerKnown(store, id, v.Events)
		if len(newer) > 0 && deletionsOfNewer(ctx, pool, res, store, newer) {
			newer = NewerKnown(store, id, v.Events)
		}
		v.LastComplete = lastComplete(src, store, id)
		pin(store, v, seeds)
		store.Close()
	}
	if !v.Complete() {
		return v, &Incomplete{View: v}
	}
	if len(newer) > 0 {
		return nil, &Stale{View: v, Newer: newer}
	}
	if !HasAnnouncementOrDeletion(v.Events, v.Coordinate()) {
		return v, &NotFound{View: v}
	}
	v.resolve()
	return v, nil
}

// deletedByAuthor reports whether the cache holds a deletion request by e's
// own author naming e's id.
func deletedByAuthor(store *cache.Cache, e *nostr.Event) bool {
	dels, err := store.DeletedBy(e.ID)
	if err != nil {
		return false
	}
	for _, d := range dels {
		if d.PubKey == e.PubKey {
			return true
		}
	}
	return false
}
