// The journal of unfinished writes for the project commands: said before a
// write signs, and resumed by `roster pending resume`.

package project

import (
	"context"
	"errors"
	"fmt"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
)

// noticeUnfinished says on stderr, before a write of project c signs
// anything, which unfinished writes of the journal touch it. A journal
// that cannot be read is an error: a write stops before signing.
func noticeUnfinished(a *cmdutil.Factory, j *journal.Dir, c projects.Coordinate) error {
	us, err := pipeline.Unfinished(j, c.String())
	render.NoticeUnfinishedOf(a, "project", us)
	if err != nil {
		return render.PipelineErr(err)
	}
	return nil
}

// ResumeProject finishes an unfinished project write for `roster pending
// resume` (projects.Resume): the recheck against the Project State it was
// built on, then the same signed event. It returns the relay's answer when
// the event was sent again (nil when the state already showed it).
func ResumeProject(a *cmdutil.Factory, ctx context.Context, w journal.Write) ([]relaypool.Delivered, error) {
	j := a.Journal()
	if j == nil {
		return nil, errors.New("no data directory: there is no journal of unfinished writes")
	}
	e := w.First()
	if len(e.Relays) == 1 {
		a.Opts.Relays = []string{e.Relays[0]}
	}
	_, me, err := a.SignerAndPubkey(ctx)
	if err != nil {
		return nil, err
	}
	if me != e.Event.PubKey {
		return nil, &cmdutil.ExitError{Code: cmdutil.ExitUsage, Kind: "usage",
			Err: fmt.Errorf("the unfinished write %s was signed by %s; you are %s", w.ID[:12], graph.Npub(e.Event.PubKey), graph.Npub(me))}
	}
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	res, err := projects.Resume(ctx, projects.ResumeInput{Relays: pool, Publish: pipeline.PoolPublish(pool), Journal: j, Now: a.Io.Now()}, e)
	if err != nil {
		return nil, render.PipelineErr(err)
	}
	projectCachePut(a, res.After)
	if !res.Sent {
		return nil, nil
	}
	return []relaypool.Delivered{{URL: res.Relay, OK: true, ReadBack: true}}, nil
}
