// The --offline cache of verified Project State, one entry per relay.

package main

import (
	"github.com/roster-cli/roster/suggest"

	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/termtext"
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
func projectCachePut(a *app, rd projects.ReadResult) {
	if rd.Best == nil && len(rd.Relays) == 0 {
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
	for _, rr := range rd.Relays {
		if rr.Info != nil {
			_ = store.PutRelayInfo(rr.URL, rr.Info, now)
		}
		if rr.Event == nil {
			continue
		}
		key := projectCacheKey(rr.URL, rr.State.Coordinate)
		if old, err := store.Projection(key); err == nil && old != nil && !graph.Newer(rr.Event, old) && old.ID != rr.Event.ID {
			continue
		}
		if err := store.PutProjection(key, rr.Event); err != nil {
			fmt.Fprintf(a.io.Err, "roster: warning: could not cache the projection from %s (%v)\n", termtext.Line(rr.URL), err)
		}
	}
}

// projectReadCached answers --offline from the cache: each relay's cached
// projection, verified again against that relay's cached NIP-11 self.
func projectReadCached(a *app, relays []string, c projects.Coordinate) (projects.ReadResult, error) {
	home, err := a.home()
	if err != nil {
		return projects.ReadResult{}, usageErr("%v", err)
	}
	store, err := cache.Open(home)
	if err != nil {
		return projects.ReadResult{}, &exitError{Code: exitIncomplete, Kind: "offline-miss",
			Err: fmt.Errorf("--offline needs the local cache: %v", err), Commands: []suggest.Command{suggest.Roster("project", "show", c.String())}}
	}
	defer store.Close()
	out := projects.ReadCached(relays, c, func(url string) (self string, evt *nostr.Event) {
		if info, ok, err := store.RelayInfo(url); err == nil && ok {
			self = info.Self
		}
		if e, err := store.Projection(projectCacheKey(url, c)); err == nil {
			evt = e
		}
		return self, evt
	})
	if out.Best == nil {
		return out, &exitError{Code: exitIncomplete, Kind: "offline-miss",
			Err:      fmt.Errorf("no cached state for project %s from %s; read it online once", c, strings.Join(relays, ", ")),
			Commands: []suggest.Command{suggest.Roster("project", "show", c.String())}}
	}
	return out, nil
}
