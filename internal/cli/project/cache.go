// The --offline cache of verified Project State, one entry per relay.

package project

import (
	"errors"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/projects"
)

// projectCachePut keeps each relay's verified projection and NIP-11 document
// for --offline (projects.Keep). The cache is an accelerator: failures cost
// a warning.
func projectCachePut(a *cmdutil.Factory, rd projects.ReadResult) {
	if rd.Best == nil && len(rd.Relays) == 0 {
		return
	}
	store, err := a.Store("--offline will not see this read")
	if err != nil {
		return
	}
	defer store.Close()
	for _, p := range projects.Keep(store, rd) {
		fmt.Fprintf(a.Io.Err, "roster: warning: %s\n", termtext.Line(p))
	}
}

// projectReadCached answers --offline from the cache (projects.ReadStore).
func projectReadCached(a *cmdutil.Factory, relays []string, c projects.Coordinate) (projects.ReadResult, error) {
	store, err := a.Store("")
	if dirErr := (*cmdutil.ExitError)(nil); errors.As(err, &dirErr) {
		return projects.ReadResult{}, err
	}
	if err != nil {
		return projects.ReadResult{}, &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "offline-miss",
			Err: fmt.Errorf("--offline needs the local cache: %v", err), Commands: []suggest.Command{suggest.Roster("project", "show", c.String())}}
	}
	defer store.Close()
	out := projects.ReadStore(store, relays, c)
	if out.Best == nil {
		return out, &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "offline-miss",
			Err:      fmt.Errorf("no cached state for project %s from %s; read it online once", c, strings.Join(relays, ", ")),
			Commands: []suggest.Command{suggest.Roster("project", "show", c.String())}}
	}
	return out, nil
}

// projectOutageFallback is `project show` during an outage
// (projects.OutageFallback on the cache): the last verified projection
// cached from a silent relay, marked stale, when no relay that answered
// holds one. It never becomes the basis of a change.
func projectOutageFallback(a *cmdutil.Factory, c projects.Coordinate, rd projects.ReadResult) (out projects.ReadResult, reason string, ok bool) {
	if rd.Best != nil {
		return rd, "", false
	}
	if _, silent := rd.Failures(); len(silent) == 0 {
		return rd, "", false
	}
	store, err := a.Store("")
	if err != nil {
		return rd, "", false
	}
	defer store.Close()
	return projects.OutageFallback(store, c, rd)
}
