package main

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/graph"
)

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
	fs := []nostr.Filter{{Kinds: []int{graph.KindDeletion}, Tags: nostr.TagMap{"a": slices.Compact(slices.Sorted(slices.Values(addrs)))}}}
	if len(ids) > 0 {
		fs = append(fs, nostr.Filter{Kinds: []int{graph.KindDeletion}, Tags: nostr.TagMap{"e": slices.Compact(slices.Sorted(slices.Values(ids)))}})
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
