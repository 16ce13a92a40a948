package cmdutil

import (
	"fmt"

	"github.com/roster-cli/roster/journal"
)

// Journal is the journal of unfinished writes in the data directory: every
// write keeps its signed events there until they are verified. Without a
// data directory it is journal.Unavailable, so a write stops before
// signing instead of signing unjournaled.
func (a *Factory) Journal() *journal.Dir {
	data, err := a.DataDir()
	if err != nil {
		return journal.Unavailable(fmt.Errorf("no data directory: %w", err))
	}
	return journal.Open(data)
}
