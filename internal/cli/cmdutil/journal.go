package cmdutil

import "github.com/roster-cli/roster/journal"

// Journal is the journal of unfinished writes in the data directory
// (nil when there is none): every write keeps its signed events there
// until they are verified.
func (a *Factory) Journal() *journal.Dir {
	data, err := a.DataDir()
	if err != nil {
		return nil
	}
	return journal.Open(data)
}
