package repo

import (
	"errors"
	"fmt"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/journal/track"
	"github.com/roster-cli/roster/termtext"
)

// noticeUnfinished says on stderr which unfinished writes of this home's
// journal touch the repository read (its coordinate, or the viewer's own
// announcement or state of its identifier), with the relays whose answer
// carried their events; and, when the journal cannot be read, that it
// cannot, naming the file and the fix (a read goes on; a write stops).
func noticeUnfinished(a *cmdutil.Factory, v *RepoView) {
	if v == nil {
		return
	}
	c := v.Coordinate()
	var addrs []string
	if v.Viewer != "" {
		addrs = append(addrs, fmt.Sprintf("%d:%s:%s", graph.KindAnnouncement, v.Viewer, c.Identifier),
			fmt.Sprintf("%d:%s:%s", graph.KindState, v.Viewer, c.Identifier))
	}
	var sources map[string][]string
	if v.Fetch != nil {
		sources = v.Fetch.Sources
	}
	us, err := track.Check(a.Journal(), sources, c.ATag(), addrs...)
	var ue *journal.UnreadableError
	if errors.As(err, &ue) && ue.Root == "" {
		// No data directory: no journal to read (a write says so).
		err = nil
	}
	if err != nil {
		fmt.Fprintf(a.Io.Err, "roster: %s\n", termtext.Line(err.Error()))
	}
	if len(us) > 0 {
		render.NoticeUnfinished(a, us)
	}
}
