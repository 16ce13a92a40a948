package cmdutil

import (
	"slices"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// RetryLater is the command to run again after relays failed to answer,
// given each relay's status: with a longer --timeout only when one of them
// timed out, since more time does not help a relay that refused the
// connection or closed the request.
func RetryLater(again suggest.Command, statuses ...string) suggest.Command {
	if slices.Contains(statuses, relaypool.StatusTimeout) {
		return again.With("--timeout", "30s").Because("retry once the relay is back; give slow relays longer")
	}
	return again.Because("retry once the relay is back")
}
