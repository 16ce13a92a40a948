package repo

import (
	"fmt"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/journal"
)

// noticeUnfinished says on stderr which unfinished writes of this home's
// journal touch the repository read (its coordinate, or the viewer's own
// announcement or state of its identifier), with the relays whose answer
// carried their events.
func noticeUnfinished(a *cmdutil.Factory, v *RepoView) {
	j := a.Journal()
	if j == nil || v == nil {
		return
	}
	c := v.Coordinate()
	var addrs []string
	if v.Viewer != "" {
		addrs = append(addrs, fmt.Sprintf("%d:%s:%s", graph.KindAnnouncement, v.Viewer, c.Identifier),
			fmt.Sprintf("%d:%s:%s", graph.KindState, v.Viewer, c.Identifier))
	}
	writes, err := j.Touching(c.ATag(), addrs...)
	if err != nil || len(writes) == 0 {
		return
	}
	var sources map[string][]string
	if v.Fetch != nil {
		sources = v.Fetch.Sources
	}
	us := make([]journal.Unfinished, 0, len(writes))
	for _, w := range writes {
		us = append(us, journal.Unfinished{Write: w, Holding: w.Holding(sources)})
	}
	render.NoticeUnfinished(a, us)
}
