// The --offline cache of verified Project State, one entry per relay.

package main

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/projects"
)

// projectCachePut keeps each relay's verified projection and NIP-11 document
// for --offline (projects.Keep). The cache is an accelerator: failures cost
// a warning.
func projectCachePut(a *app, rd projects.ReadResult) {
	if rd.Best == nil && len(rd.Relays) == 0 {
		return
	}
	home, err := a.cacheDir()
	if err != nil {
		return
	}
	store, err := a.openCacheIn(home)
	if err != nil {
		fmt.Fprintf(a.io.Err, "roster: warning: %v; --offline will not see this read\n", err)
		return
	}
	defer store.Close()
	for _, p := range projects.Keep(cacheStore{c: store, a: a}, rd) {
		fmt.Fprintf(a.io.Err, "roster: warning: %s\n", termtext.Line(p))
	}
}

// projectReadCached answers --offline from the cache (projects.ReadStore).
func projectReadCached(a *app, relays []string, c projects.Coordinate) (projects.ReadResult, error) {
	home, err := a.cacheDir()
	if err != nil {
		return projects.ReadResult{}, usageErr("%v", err)
	}
	store, err := a.openCacheIn(home)
	if err != nil {
		return projects.ReadResult{}, &exitError{Code: exitIncomplete, Kind: "offline-miss",
			Err: fmt.Errorf("--offline needs the local cache: %v", err), Commands: []suggest.Command{suggest.Roster("project", "show", c.String())}}
	}
	defer store.Close()
	out := projects.ReadStore(cacheStore{c: store, a: a}, relays, c)
	if out.Best == nil {
		return out, &exitError{Code: exitIncomplete, Kind: "offline-miss",
			Err:      fmt.Errorf("no cached state for project %s from %s; read it online once", c, strings.Join(relays, ", ")),
			Commands: []suggest.Command{suggest.Roster("project", "show", c.String())}}
	}
	return out, nil
}

// projectOutageFallback is `project show` during an outage, as `workspace
// show` does it: when no relay that answered holds a valid projection and
// some relay did not answer, the last verified projection cached from a
// silent relay is shown (verified again against that relay's cached self),
// marked stale. It never becomes the basis of a change: relate and unrelate
// read live. ok is false when the cache has nothing for those relays.
func projectOutageFallback(a *app, c projects.Coordinate, rd projects.ReadResult) (out projects.ReadResult, reason string, ok bool) {
	_, silent := rd.Failures()
	if rd.Best != nil || len(silent) == 0 {
		return rd, "", false
	}
	home, err := a.cacheDir()
	if err != nil {
		return rd, "", false
	}
	store, err := a.openCacheIn(home)
	if err != nil {
		return rd, "", false
	}
	defer store.Close()
	var urls, why []string
	for _, r := range silent {
		urls = append(urls, r.URL)
		why = append(why, relayFailure(r.URL, r.Status, r.Reason))
	}
	cached := projects.ReadStore(cacheStore{c: store, a: a}, urls, c)
	if cached.Best == nil {
		return rd, "", false
	}
	// Keep the live outcome of every relay asked; only the state is cached.
	cached.Relays, cached.Complete = rd.Relays, rd.Complete
	return cached, strings.Join(why, "; "), true
}
