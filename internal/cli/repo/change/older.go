package change

import (
	"fmt"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/membership"
	"github.com/roster-cli/roster/suggest"
)

// olderServedAdvice says, for each relay that still served an older
// version of the published announcement's address while verifying
// (membership.Outcome.OlderServed), that it does: the change is verified
// by what the relays returned by id, but a reader asking that relay by
// address may see the replaced version for a while.
func olderServedAdvice(o *membership.Outcome) []suggest.Guidance {
	var out []suggest.Guidance
	for _, s := range o.OlderServed {
		out = append(out, suggest.Guidance{Whats: []string{fmt.Sprintf(
			"%s still serves the older version %s (created at %s) of this announcement by address beside %s (a cached or lagging answer): a reader asking it may see the replaced version; repo health names it while it lasts: republish the new version to it or stop using it",
			s.Relay, s.Older.ID, graph.HumanTime(int64(s.Older.CreatedAt)), s.Newer.ID)}})
	}
	return out
}
