package repo

import (
	"fmt"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/suggest"
)

// reachBoundErr is exit 4: a write's announcements reach more people than
// discovery.MaxWriteReach, so its evidence cannot be complete within the
// bound. It names the person whose announcement names the most people.
func reachBoundErr(a *cmdutil.Factory, e *discovery.ReachBound) *cmdutil.ExitError {
	who := ""
	if e.Widest != "" {
		who = fmt.Sprintf(" (%s's announcement alone names %d)", graph.Npub(e.Widest), e.Names)
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitIncomplete, Kind: "reach-bound",
		Err: fmt.Errorf("this change involves more than %d people: the announcements it reaches name %d%s; roster checks the events of at most %d people for a change, so it cannot be sure it saw every announcement and state event that decides it; nothing was decided or published",
			discovery.MaxWriteReach, e.Reached, who, discovery.MaxWriteReach),
		Details:  map[string]any{"reached": e.Reached, "max_reached": discovery.MaxWriteReach, "widest": graph.Npub(e.Widest), "names": e.Names},
		Commands: []suggest.Command{suggest.Roster("repo", "graph").Because("who names whom in this repository")}}
}
