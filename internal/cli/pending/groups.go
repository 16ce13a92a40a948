package pending

import (
	"context"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// resumeGroupWrite finishes an unfinished NIP-29 write (groups.Resume):
// moderation events, join and leave requests, groups lists.
func resumeGroupWrite(a *cmdutil.Factory, ctx context.Context, j *journal.Dir, w journal.Write) error {
	pool := a.Pool(cmdutil.AuthLazy)
	defer pool.Close()
	r, err := groups.Resume(ctx, groups.ResumeInput{Relays: pool, Publish: pipeline.PoolPublish(pool), Journal: j, Now: a.Io.Now}, w)
	if err != nil {
		return render.PipelineErr(err)
	}
	out := report.PendingResume{Schema: report.PendingResumeSchema, Write: report.PendingWriteOf(w, r.Holding, a.Io.Now()),
		Sent: r.Sent, Verified: true}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	wr := a.Io.Out
	for _, e := range out.Write.Events {
		if d, ok := r.Sent[e.ID]; ok {
			var to []string
			for _, x := range d {
				to = append(to, x.URL)
			}
			fmt.Fprintln(wr, termtext.Line(fmt.Sprintf("sent %s (kind %d) again to %s", e.ID, e.Kind, strings.Join(to, ", "))))
		} else {
			fmt.Fprintln(wr, termtext.Line(fmt.Sprintf("%s (kind %d) was already held by the relay", e.ID, e.Kind)))
		}
	}
	fmt.Fprintf(wr, "verified: %s; the write %s is finished\n", termtext.Line(r.Verified), w.ID[:12])
	return nil
}
