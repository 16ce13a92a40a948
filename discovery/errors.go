package discovery

import (
	"github.com/nbd-wtf/go-nostr"

	"fmt"

	"github.com/roster-cli/roster/gitstate"
)

// Incomplete: not every relay answered (or, offline, the cache cannot
// prove anything is latest). View holds what was read.
type Incomplete struct{ View *View }

func (e *Incomplete) Error() string {
	return "the evidence for " + e.View.Coordinate().ATag() + " is incomplete"
}

// NotFound: the relays (or the cache) hold no announcement of the selected
// coordinate, nor a deletion of it.
type NotFound struct{ View *View }

func (e *NotFound) Error() string {
	return "no repository announcement found for " + e.View.Coordinate().ATag()
}

// NoRelays: there is no relay to ask for the selection.
type NoRelays struct{ Selection gitstate.Selection }

func (e *NoRelays) Error() string {
	return "no relays to ask for " + e.Selection.Coordinate.ATag()
}

// CacheError: the local cache could not be opened or read where a read
// needed it.
type CacheError struct {
	Doing string
	Err   error
}

func (e *CacheError) Error() string { return fmt.Sprintf("%s: %v", e.Doing, e.Err) }
func (e *CacheError) Unwrap() error { return e.Err }

// Stale: the relays answered with an older version of an address than
// one this machine verified before (NewerKnown): a relay serves a cached or
// lagging answer. A write built on it would drop the newer version.
type Stale struct {
	View *View
	// Newer are the newer versions the cache holds.
	Newer []*nostr.Event
}

func (e *Stale) Error() string {
	return "the relays answered with an older version of " + e.View.Coordinate().ATag() + " than one already verified"
}
