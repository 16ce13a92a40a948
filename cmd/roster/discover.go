package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
)

// evidence is how complete a read must be before a command may use it
// (maintainers.md "Relay disagreement"): reads show partial information,
// health checks and membership writes fail closed.
type evidence int

const (
	// partialEvidence: show what answered and mark the result incomplete.
	partialEvidence evidence = iota
	// completeEvidence: every relay must answer, else exit 4.
	completeEvidence
)

// repoView is one discovery of a repository: the selection, what each relay
// said, the verified events, the graph resolution and the resolved state.
// Every repository command (read or write) starts from one.
type repoView struct {
	Selection gitstate.Selection
	// Checkout is the Git checkout discovery ran in; nil outside one.
	Checkout *gitstate.Checkout
	// Relays are the relays asked, in order (empty with --offline).
	Relays []string
	// Fetch is what the relays answered; nil with --offline.
	Fetch *relaypool.FetchResult
	// Events are the verified, in-scope events resolution used.
	Events []*nostr.Event
	// Resolution is graph.Resolve rooted at the selected coordinate.
	Resolution *graph.Resolution
	// StateEvent is the resolved kind 30618 event and State its parse; nil
	// when no confirmed maintainer published usable state.
	StateEvent *nostr.Event
	State      *gitstate.State
	// Viewer is the signed-in user's hex pubkey, or "" when nobody is.
	Viewer string
	// Now is the clock reading the resolution used (Unix seconds).
	Now     int64
	Offline bool
}

// Complete reports whether every relay answered. An offline read is never
// complete: a cached event is not proof that it is still the latest.
func (v *repoView) Complete() bool {
	return !v.Offline && v.Fetch != nil && v.Fetch.Complete
}

// Coordinate is the selected coordinate.
func (v *repoView) Coordinate() graph.Coordinate { return v.Selection.Coordinate }

// loadRepo runs the shared read pipeline: resolve the coordinate, discover
// every same-identifier announcement, state event and deletion (from the
// relays, or the cache with --offline), verify them, resolve the maintainer
// graph and select the state. With completeEvidence, a relay that did not
// answer is exit 4 before anything else is decided.
func (a *app) loadRepo(ctx context.Context, need evidence) (*repoView, error) {
	v := &repoView{Offline: a.opts.Offline, Now: a.io.Now().Unix()}
	var err error
	if v.Selection, v.Checkout, err = a.selectCoordinate(ctx); err != nil {
		return nil, err
	}
	v.Viewer = a.viewerPubkey()

	if v.Offline {
		err = a.readCached(v)
	} else {
		err = a.fetchFromRelays(ctx, v, need)
	}
	if err != nil {
		return nil, err
	}
	if need == completeEvidence && !v.Complete() {
		return nil, a.incompleteErr(v)
	}
	if !hasAnnouncementOrDeletion(v.Events, v.Coordinate()) {
		if !v.Offline && answered(v.Fetch) == 0 {
			// Nothing was searched: say the relays failed, not "not found".
			return nil, a.incompleteErr(v)
		}
		return nil, a.notFoundErr(v)
	}
	v.Resolution = graph.Resolve(v.Events, v.Coordinate(), v.Now, graph.Options{Viewer: v.Viewer})
	v.StateEvent = selectStateEvent(v.Events, v.Resolution)
	if v.StateEvent != nil {
		// An unparseable state event is reported as no state rather than
		// failing the whole read.
		if st, err := gitstate.ParseState(v.StateEvent); err == nil {
			v.State = st
		} else {
			v.StateEvent = nil
		}
	}
	return v, nil
}

// selectCoordinate resolves the selected coordinate in the spec's order.
// Outside a Git checkout only --repo can name one.
func (a *app) selectCoordinate(ctx context.Context) (gitstate.Selection, *gitstate.Checkout, error) {
	var sel gitstate.Selection
	co, err := gitstate.Open(a.io.Dir)
	switch {
	case errors.Is(err, gitstate.ErrNotARepository):
		co = nil
		if a.opts.Repo == "" {
			return sel, nil, &exitError{Code: exitUsage, Kind: "no-coordinate",
				Err:      fmt.Errorf("not inside a Git checkout, and no --repo given: roster does not know which repository to read"),
				Commands: []string{"roster repo --repo <naddr|nostr://npub/identifier>", "cd <your clone> && roster repo"}}
		}
		sel, err = gitstate.ResolveWithoutCheckout(a.opts.Repo)
	case err != nil:
		return sel, nil, err
	default:
		sel, err = co.ResolveCoordinate(a.opts.Repo)
	}
	if err != nil {
		ee := &exitError{Code: exitUsage, Kind: "usage", Err: err}
		var amb *gitstate.AmbiguousError
		if errors.As(err, &amb) {
			ee.Kind = "ambiguous-coordinate"
			ee.Commands, ee.Details = ambiguityChoices(amb)
		} else if errors.Is(err, gitstate.ErrNoCoordinate) {
			ee.Kind = "no-coordinate"
			ee.Commands = []string{"roster repo --repo <naddr|nostr://npub/identifier>", "git config nostr.repo <naddr>"}
		}
		if ee.Kind == "usage" {
			ee.Commands = a.coordinateUsageCommands(co != nil)
		}
		return sel, co, ee
	}
	if sel.NeedsNIP05() {
		if a.opts.Offline {
			return sel, co, &exitError{Code: exitUsage, Kind: "usage",
				Err:      fmt.Errorf("the coordinate names %s, a NIP-05 name that needs the network to look up", sel.NIP05),
				Commands: []string{"roster repo --repo <naddr|nostr://npub/identifier> --offline", "roster repo"}}
		}
		hctx, cancel := context.WithTimeout(ctx, a.opts.Timeout)
		defer cancel()
		if sel, err = sel.Resolve(hctx, http.DefaultClient); err != nil {
			return sel, co, &exitError{Code: exitIncomplete, Kind: "nip05", Err: fmt.Errorf("look up %s: %w", sel.NIP05, err),
				Commands: []string{"roster repo --repo <naddr|nostr://npub/identifier>"}}
		}
	}
	return sel, co, nil
}

// discoveryRelays is where to look: --relay alone when given (it replaces
// discovery), else ROSTER_RELAYS plus the coordinate's relay hints.
func (a *app) discoveryRelays(sel gitstate.Selection) []string {
	if len(a.opts.Relays) > 0 {
		return uniqueRelays(a.opts.Relays)
	}
	return uniqueRelays(append(a.defaultRelays(), sel.Relays...))
}

// fetchFromRelays asks every relay once, in parallel, and when the selected
// announcement names relays not yet asked, asks only those in one more round.
// Writes and health checks (completeEvidence) also ask, in one more round,
// for deletions of every other author's events. Verified events are written
// to the cache (with the pool's proof of verification); a cache that cannot be opened costs a warning, not the read.
func (a *app) fetchFromRelays(ctx context.Context, v *repoView, need evidence) error {
	relays := a.discoveryRelays(v.Selection)
	if len(relays) == 0 {
		return &exitError{Code: exitUsage, Kind: "no-relays",
			Err: fmt.Errorf("no relays to ask for %s: the coordinate carries no relay hints and neither --relay nor ROSTER_RELAYS is set", displayCoord(v.Coordinate())),
			Commands: []string{"roster repo" + a.repoFlag() + " --relay wss://<relay>", "export ROSTER_RELAYS=wss://<relay>,wss://<relay>",
				"roster repo" + a.repoFlag() + " --offline"}}
	}
	progress := newRelayProgress(a.io.Err, a.io.ErrTTY)
	pool := relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: a.authSigner, Progress: progress.update})
	defer pool.Close()
	id := v.Coordinate().Identifier
	// Coordinates the cache already knows get their deletions asked in the
	// same single round.
	store := a.openCacheForFetch()
	if store != nil {
		defer store.Close()
	}
	coords := append([]graph.Coordinate{v.Coordinate()}, cachedCoordinates(store, v.Coordinate())...)
	res := pool.Discover(ctx, relays, id, coords...)

	// A newly learned relay costs one more round, only then, and never when
	// --relay replaced discovery.
	if len(a.opts.Relays) == 0 {
		if extra := newAnnouncedRelays(inScope(res.Events, id), v.Coordinate(), relays); len(extra) > 0 {
			progress.nextRound()
			res = pool.DiscoverMore(ctx, res, extra)
		}
	}
	if need == completeEvidence && res.Complete {
		progress.nextRound()
		res = pool.CompleteDeletions(ctx, res)
	}
	progress.done()
	v.Relays = make([]string, 0, len(res.Relays))
	for _, r := range res.Relays {
		v.Relays = append(v.Relays, r.URL)
	}
	v.Fetch = res
	v.Events = inScope(res.Events, id)
	if store != nil {
		// The pool checked every signature; its proofs let the cache store
		// them without checking each a second time.
		if err := store.PutVerified(res.Verified(v.Events)...); err != nil {
			fmt.Fprintf(a.io.Err, "roster: warning: could not update the local cache (%v); --offline will not see this read\n", err)
		}
	}
	return nil
}

// readCached answers from the cache alone (--offline).
func (a *app) readCached(v *repoView) error {
	home, err := a.home()
	if err != nil {
		return &exitError{Code: exitUsage, Kind: "usage", Err: err}
	}
	c, err := cache.Open(home)
	if err != nil {
		return cacheErr("--offline needs the local cache", err)
	}
	defer c.Close()
	id := v.Coordinate().Identifier
	evts, err := c.Query(nostr.Filter{Kinds: []int{graph.KindAnnouncement, graph.KindState}, Tags: nostr.TagMap{"d": {id}}})
	if err != nil {
		return cacheErr("read the local cache", err)
	}
	for _, f := range deletionFilters(evts, v.Coordinate()) {
		dels, err := c.Query(f)
		if err != nil {
			return cacheErr("read the local cache", err)
		}
		evts = append(evts, dels...)
	}
	v.Events = inScope(evts, id)
	v.Relays = []string{}
	return nil
}

// deletionFilters ask for kind 5 requests addressing any announcement or
// state coordinate among evts and the selected coordinate (by `a`), or any of
// those events by id (by `e`).
func deletionFilters(evts []*nostr.Event, sel graph.Coordinate) []nostr.Filter {
	addrs := []string{sel.ATag(), graph.Coordinate{Kind: graph.KindState, Pubkey: sel.Pubkey, Identifier: sel.Identifier}.ATag()}
	ids := []string{}
	for _, e := range evts {
		addrs = append(addrs, graph.Coordinate{Kind: e.Kind, Pubkey: e.PubKey, Identifier: sel.Identifier}.ATag())
		ids = append(ids, e.ID)
	}
	fs := []nostr.Filter{{Kinds: []int{graph.KindDeletion}, Tags: nostr.TagMap{"a": sortedUnique(addrs)}}}
	if len(ids) > 0 {
		fs = append(fs, nostr.Filter{Kinds: []int{graph.KindDeletion}, Tags: nostr.TagMap{"e": sortedUnique(ids)}})
	}
	return fs
}

// openCacheForFetch opens the cache a network read writes to. The cache is
// an accelerator: when it cannot be opened the read goes on without it,
// after a warning that says how to fix it.
func (a *app) openCacheForFetch() *cache.Cache {
	home, err := a.home()
	if err != nil {
		fmt.Fprintf(a.io.Err, "roster: warning: %v; reading without the local cache\n", err)
		return nil
	}
	c, err := cache.Open(home)
	if err != nil {
		fmt.Fprintf(a.io.Err, "roster: warning: %v; reading without the local cache\n", err)
		return nil
	}
	return c
}

// cachedCoordinates are the other same-identifier announcement authors the
// cache already knows, so their deletions are asked in the first round.
func cachedCoordinates(c *cache.Cache, sel graph.Coordinate) []graph.Coordinate {
	if c == nil {
		return nil
	}
	evts, err := c.Query(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Tags: nostr.TagMap{"d": {sel.Identifier}}})
	if err != nil {
		return nil
	}
	var out []graph.Coordinate
	for _, e := range evts {
		if e.PubKey != sel.Pubkey {
			out = append(out, graph.NewCoordinate(e.PubKey, sel.Identifier))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pubkey < out[j].Pubkey })
	return out
}

// cacheErr turns a cache failure into an exit error carrying the cache's
// own way out (clear it, wait for the lock, use another --home).
func cacheErr(prefix string, err error) *exitError {
	ee := &exitError{Code: exitFailure, Kind: "cache", Err: fmt.Errorf("%s: %w", prefix, err),
		Commands: []string{"roster cache info"}}
	var ce *cache.Error
	if errors.As(err, &ce) {
		// The same codes as `roster cache info` (docs/cache.md), so a
		// script handles a bad cache one way whichever command met it.
		ee.Kind = "cache-" + string(ce.Reason)
		ee.Details = map[string]any{"path": ce.Path}
		ee.Commands = append(ce.Commands(), ee.Commands...)
	}
	return ee
}

// inScope keeps events that are in scope (kind 30617/30618 with the
// identifier as `d`, or kind 5) and whose id matches their content, once
// each. Signatures were checked where events entered roster: relaypool
// verifies id, signature and filter of every event a relay sends, and the
// cache stores only events carrying the pool's proof of that check (or
// checks them itself); checking them again here cost a third of a cold read (docs/PERFORMANCE.md). The id check is cheap and
// catches a damaged cache record.
func inScope(events []*nostr.Event, identifier string) []*nostr.Event {
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

// hasAnnouncementOrDeletion reports whether the selected author's
// announcement (or a deletion of it, which still supports a lifecycle
// notice) was found.
func hasAnnouncementOrDeletion(events []*nostr.Event, c graph.Coordinate) bool {
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

// newAnnouncedRelays returns the selected announcement's `relays` entries
// that were not asked yet.
func newAnnouncedRelays(events []*nostr.Event, c graph.Coordinate, asked []string) []string {
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
	for _, t := range latest.Tags {
		if len(t) < 2 || t[0] != "relays" {
			continue
		}
		for _, r := range t[1:] {
			n := nostr.NormalizeURL(r)
			if n != "" && !known[n] {
				known[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// selectStateEvent picks the resolved kind 30618 event: the newest (NIP-01
// order, lowest id on ties) latest-per-author state from a confirmed
// maintainer, skipping events their author deleted. State from anyone
// outside the confirmed component is never authoritative.
func selectStateEvent(events []*nostr.Event, r *graph.Resolution) *nostr.Event {
	latest := map[string]*nostr.Event{}
	for _, e := range events {
		if e.Kind != graph.KindState || !r.Confirmed(e.PubKey) {
			continue
		}
		if cur, ok := latest[e.PubKey]; !ok || graph.Newer(e, cur) {
			latest[e.PubKey] = e
		}
	}
	var best *nostr.Event
	for _, e := range latest {
		if stateDeleted(e, events) {
			continue
		}
		if best == nil || graph.Newer(e, best) {
			best = e
		}
	}
	return best
}

// stateDeleted: a same-author kind 5 names the event's id, or its address
// with created_at at or after the event's (NIP-09).
func stateDeleted(e *nostr.Event, events []*nostr.Event) bool {
	addr := graph.Coordinate{Kind: graph.KindState, Pubkey: e.PubKey, Identifier: e.Tags.GetD()}.ATag()
	for _, d := range events {
		if d.Kind != graph.KindDeletion || d.PubKey != e.PubKey {
			continue
		}
		for _, t := range d.Tags {
			if len(t) >= 2 && (t[0] == "e" && t[1] == e.ID || t[0] == "a" && t[1] == addr && d.CreatedAt >= e.CreatedAt) {
				return true
			}
		}
	}
	return false
}

// incompleteErr is exit 4 naming each relay that did not answer and why, or
// saying that the cache alone (--offline) cannot prove anything is latest.
func (a *app) incompleteErr(v *repoView) *exitError {
	rf := a.repoFlag()
	if v.Offline {
		return &exitError{Code: exitIncomplete, Kind: "incomplete",
			Err: fmt.Errorf("--offline answers from the local cache, which cannot prove that %s's events are still the latest; nothing was decided",
				displayCoord(v.Coordinate())),
			Details:  map[string]any{"relays": []map[string]any{}, "offline": true},
			Commands: []string{"roster repo health" + rf + a.relayFlags() + "   # the same, without --offline"}}
	}
	var lines, hinted []string
	rel := []map[string]any{}
	for _, r := range v.Fetch.Relays {
		rel = append(rel, map[string]any{"url": r.URL, "status": r.Status, "reason": r.Reason, "events": r.Events})
		if r.Status != relaypool.StatusOK {
			line := r.URL + " " + r.Status
			if r.Reason != "" {
				line += ": " + r.Reason
			}
			if ws, ok := plainWebsocketInstead(r.URL, r.Reason); ok {
				line += "\n    it speaks plain ws://, not wss:// (a relay hint without a scheme means wss://)"
				hinted = append(hinted, "roster repo"+a.repoFlag()+" --relay "+ws+"   # the same relay over plain ws://")
			}
			lines = append(lines, line)
		}
	}
	what := "not every relay answered, so the evidence for %s is incomplete; nothing was decided:\n  %s"
	rf += a.relayFlags() // the same relays again; only a different-relay suggestion drops them
	cmds := []string{"roster repo" + rf + "   # a read shows the partial answer and which relays failed",
		"roster repo health" + rf + " --timeout 30s   # give slow relays longer"}
	if answered(v.Fetch) == 0 {
		what = "no relay answered, so nothing is known about %s:\n  %s"
		cmds = []string{"roster repo" + a.repoFlag() + " --relay wss://<a relay that answers>", "roster repo" + rf + " --timeout 30s   # give slow relays longer",
			"roster repo" + a.repoFlag() + " --offline   # what an earlier read cached"}
	}
	cmds = append(hinted, cmds...)
	return &exitError{Code: exitIncomplete, Kind: "incomplete",
		Err:      fmt.Errorf(what, displayCoord(v.Coordinate()), strings.Join(lines, "\n  ")),
		Details:  map[string]any{"relays": rel},
		Commands: cmds}
}

// plainWebsocketInstead recognizes a wss:// relay that answered TLS with
// plain HTTP: typically a local relay (roster dev relay) reached through a
// scheme-less relay hint, which NIP-34 URLs read as wss://. It returns the
// ws:// URL to use instead.
func plainWebsocketInstead(url, reason string) (string, bool) {
	if !strings.HasPrefix(url, "wss://") || !strings.Contains(reason, "server gave HTTP response to HTTPS client") {
		return "", false
	}
	return "ws://" + strings.TrimPrefix(url, "wss://"), true
}

// answered counts the relays that answered with EOSE.
func answered(res *relaypool.FetchResult) int {
	n := 0
	if res != nil {
		for _, r := range res.Relays {
			if r.Status == relaypool.StatusOK {
				n++
			}
		}
	}
	return n
}

// notFoundErr is exit 4 saying what was searched and what to try.
func (a *app) notFoundErr(v *repoView) *exitError {
	c := v.Coordinate()
	where := "relays " + strings.Join(v.Relays, ", ")
	url := gitstate.NostrURL(c, nil)
	cmds := []string{
		"roster repo --repo " + url + " --relay wss://<a relay that has it>   # ask other relays",
		"roster repo --repo nostr://<npub>/<identifier>   # check the author and the identifier",
	}
	if v.Offline {
		where = "the local cache (--offline)"
		cmds = []string{"roster repo --repo " + url + a.relayFlags() + "   # without --offline: fetch it from relays first"}
	} else if v.Fetch != nil && !v.Fetch.Complete {
		where += " (not all of them answered)"
		cmds = append([]string{"roster repo --repo " + url + a.relayFlags() + " --timeout 30s   # give the silent relays longer"}, cmds...)
	}
	return &exitError{Code: exitIncomplete, Kind: "not-found",
		Err: fmt.Errorf("no repository announcement found for %s (kind %d, d=%q, author %s) in %s",
			displayCoord(c), graph.KindAnnouncement, c.Identifier, gitstate.EncodeNpub(c.Pubkey), where),
		Details:  map[string]any{"coordinate": c.ATag(), "searched": v.Relays, "offline": v.Offline},
		Commands: cmds}
}

// displayCoord renders a coordinate the way people say it: npub/identifier.
func displayCoord(c graph.Coordinate) string {
	return gitstate.EncodeNpub(c.Pubkey) + "/" + c.Identifier
}

func uniqueRelays(in []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, r := range in {
		n := nostr.NormalizeURL(strings.TrimSpace(r))
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func sortedUnique(in []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// viewerPubkey is whose announcement the advisory warnings are about: the
// ROSTER_SECRET_KEY or logged-in pubkey, found without unlocking anything
// (no passphrase prompt, no bunker round trip). Nobody signed in is "".
func (a *app) viewerPubkey() string {
	env, err := a.signerEnv(newSecretReader(a))
	if err != nil {
		return ""
	}
	acct, err := signer.Identify(env)
	if err != nil {
		return ""
	}
	return acct.Pubkey
}

// authSigner answers a relay's NIP-42 challenge. The signer is opened only
// when a relay asks, so reads never prompt otherwise; without one the relay
// is reported as closed: auth-required.
func (a *app) authSigner(ctx context.Context, evt *nostr.Event) error {
	s, err := a.signer(ctx)
	if err != nil {
		return err
	}
	return s.SignEvent(ctx, evt)
}

// ambiguityChoices turns each distinct candidate coordinate into a command
// that selects it, and lists the candidates for --json, so choosing is a
// copy and paste rather than a lookup.
func ambiguityChoices(amb *gitstate.AmbiguousError) ([]string, map[string]any) {
	var cmds []string
	cands := []map[string]any{}
	seen := map[string]bool{}
	for _, c := range amb.Candidates {
		cands = append(cands, map[string]any{"coordinate": c.Display(), "from": c.From})
		if c.Coordinate.Pubkey == "" || seen[c.Coordinate.ATag()] {
			continue // a NIP-05 candidate has no key yet
		}
		seen[c.Coordinate.ATag()] = true
		url := gitstate.NostrURL(c.Coordinate, nil)
		cmds = append(cmds, "roster repo --repo "+shellQuote(url)+"   # "+c.From,
			"git config nostr.repo "+gitstate.EncodeNaddr(c.Coordinate, c.Relays)+"   # choose it for good")
	}
	if len(cmds) == 0 {
		cmds = []string{"roster repo --repo <naddr|nostr://npub/identifier>", "git config nostr.repo <naddr>"}
	}
	return cmds, map[string]any{"candidates": cands}
}

// repoFlag is " --repo <value>" when the user named the repository with
// --repo, so a suggested command still names it: outside a checkout, a
// suggestion without it would fail with "no --repo given".
func (a *app) repoFlag() string {
	if a.opts.Repo == "" {
		return ""
	}
	return " --repo " + shellQuote(a.opts.Repo)
}

// relayFlags repeats the user's --relay flags, so a suggested retry asks
// the same relays (without them it would fall back to discovery, or to none).
func (a *app) relayFlags() string {
	var b strings.Builder
	for _, r := range a.opts.Relays {
		b.WriteString(" --relay " + shellQuote(r))
	}
	return b.String()
}

// coordinateUsageCommands are the ways to name a repository correctly after
// --repo (or a checkout's configuration) named one badly. A bare
// "npub1.../identifier" gets its nostr:// spelling.
func (a *app) coordinateUsageCommands(inCheckout bool) []string {
	var cmds []string
	if owner, id, ok := strings.Cut(a.opts.Repo, "/"); ok && id != "" && !strings.Contains(owner, ":") &&
		(strings.HasPrefix(owner, "npub1") || len(owner) == 64) {
		cmds = append(cmds, "roster repo --repo "+shellQuote("nostr://"+a.opts.Repo))
	}
	cmds = append(cmds, "roster repo --repo nostr://<npub>/<identifier>",
		"roster repo --repo naddr1...   # the whole naddr, as it was shared")
	switch {
	case inCheckout && a.opts.Repo == "":
		// The checkout's own configuration named the bad coordinate.
		cmds = append(cmds, "git config nostr.repo <naddr>   # select the right one for this checkout",
			"git config --unset nostr.repo   # or fall back to the checkout's nostr:// remotes")
	case inCheckout:
		cmds = append(cmds, "git remote -v   # the remote names --repo accepts")
	}
	return cmds
}

// shellQuote returns s as one shell word: unchanged when it is made of safe
// characters (every npub, naddr and nostr:// URL is), else single-quoted.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
