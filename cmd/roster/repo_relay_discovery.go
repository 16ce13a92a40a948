package main

import (
	"context"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// discoveryRelays is where to look: --relay alone when given (it replaces
// discovery), else ROSTER_RELAYS (or config.yaml's relays) plus the
// coordinate's relay hints.
func (a *app) discoveryRelays(sel gitstate.Selection) []string {
	if len(a.opts.Relays) > 0 {
		return relaypool.NormalizeRelays(a.opts.Relays)
	}
	return relaypool.NormalizeRelays(append(a.defaultRelays(), sel.Relays...))
}

// fetchFromRelays asks every relay once, in parallel, and when the selected
// announcement names relays not yet asked, asks only those in one more round.
// Writes and health checks (completeEvidence) also ask, in one more round,
// for deletions of every other author's events. Verified events are written
// to the cache (with the pool's proof of verification); a cache that cannot
// be opened costs a warning, not the read.
func (a *app) fetchFromRelays(ctx context.Context, v *repoView, need evidence) error {
	relays := a.discoveryRelays(v.Selection)
	if len(relays) == 0 {
		return &exitError{Code: exitUsage, Kind: "no-relays",
			Err: fmt.Errorf("no relays to ask for %s: the coordinate carries no relay hints, no --relay was given, ROSTER_RELAYS is unset and config.yaml in the roster home lists no relays", displayCoord(v.Coordinate())),
			Commands: []string{"roster repo" + a.repoFlag() + " --relay wss://<relay>", "export ROSTER_RELAYS=wss://<relay>,wss://<relay>",
				"roster repo" + a.repoFlag() + " --offline"}}
	}
	progress := newRelayProgress(a.io.Err, a.io.ErrTTY)
	pool := relaypool.New(relaypool.Options{Timeout: a.opts.Timeout, Auth: a.authSigner, Progress: progress.update})
	defer pool.Close()
	id := v.Coordinate().Identifier
	// Coordinates the cache already knows get their deletions asked in the
	// same single round. The cache is closed again before any network wait:
	// bbolt locks the file, and another roster process must not wait on our
	// relays.
	var known []graph.Coordinate
	if store := a.openCacheForFetch(); store != nil {
		known = cachedCoordinates(store, v.Coordinate())
		store.Close()
	}
	coords := append([]graph.Coordinate{v.Coordinate()}, known...)
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
	if store := a.openCacheForFetch(); store != nil {
		// The pool checked every signature; its proofs let the cache store
		// them without checking each a second time.
		if err := store.PutVerified(res.Verified(v.Events)...); err != nil {
			fmt.Fprintf(a.io.Err, "roster: warning: could not update the local cache (%v); --offline will not see this read\n", err)
		}
		store.Close()
	}
	return nil
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
