// The --offline cache of verified Project State, one entry per relay.

package main

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/projects"
)

// projectCacheKey names one relay's projection of one project in the cache:
// projections are per relay, because each relay signs its own community's state.
func projectCacheKey(relay string, c projects.Coordinate) string {
	return "nip-pc:" + relay + ":" + c.Address()
}

// projectCachePut keeps each relay's verified projection and NIP-11 document
// for --offline. The cache is an accelerator: failures cost a warning. An
// older projection never replaces a newer cached one.
func projectCachePut(a *app, rd projectReadResult) {
	if rd.best == nil && len(rd.relays) == 0 {
		return
	}
	home, err := a.home()
	if err != nil {
		return
	}
	store, err := cache.Open(home)
	if err != nil {
		fmt.Fprintf(a.io.Err, "roster: warning: %v; --offline will not see this read\n", err)
		return
	}
	defer store.Close()
	now := a.io.Now()
	for _, rr := range rd.relays {
		if rr.info != nil {
			_ = store.PutRelayInfo(rr.URL, rr.info, now)
		}
		if rr.event == nil {
			continue
		}
		key := projectCacheKey(rr.URL, rr.state.Coordinate)
		if old, err := store.Projection(key); err == nil && old != nil && !graph.Newer(rr.event, old) && old.ID != rr.event.ID {
			continue
		}
		if err := store.PutProjection(key, rr.event); err != nil {
			fmt.Fprintf(a.io.Err, "roster: warning: could not cache the projection from %s (%v)\n", rr.URL, err)
		}
	}
}

// projectReadCached answers --offline from the cache: each relay's cached
// projection, verified again against that relay's cached NIP-11 self.
func projectReadCached(a *app, relays []string, c projects.Coordinate) (projectReadResult, error) {
	home, err := a.home()
	if err != nil {
		return projectReadResult{}, usageErr("%v", err)
	}
	store, err := cache.Open(home)
	if err != nil {
		return projectReadResult{}, &exitError{Code: exitIncomplete, Kind: "offline-miss",
			Err: fmt.Errorf("--offline needs the local cache: %v", err), Commands: []string{"roster project show " + c.String()}}
	}
	defer store.Close()
	out := projectReadResult{complete: false}
	var valid []projects.State
	for _, url := range relaypool.NormalizeRelays(relays) {
		rr := projectRelayRead{URL: url, Status: "cache", Projection: "none"}
		info, ok, err := store.RelayInfo(url)
		if err == nil && ok {
			rr.Self = info.Self
		}
		evt, err := store.Projection(projectCacheKey(url, c))
		if err == nil && evt != nil {
			projectJudge(&rr, []*nostr.Event{evt}, c)
		}
		if rr.state != nil {
			valid = append(valid, *rr.state)
		}
		out.relays = append(out.relays, rr)
	}
	projectPickBest(&out, valid)
	if out.best == nil {
		return out, &exitError{Code: exitIncomplete, Kind: "offline-miss",
			Err:      fmt.Errorf("no cached state for project %s from %s; read it online once", c, strings.Join(relays, ", ")),
			Commands: []string{"roster project show " + c.String()}}
	}
	return out, nil
}
