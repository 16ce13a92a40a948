package pending

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/roster-cli/roster/workspace/sections"
)

// oneRelayWrite reports whether w is a workspace command or a project
// write: one event for the one relay that governs it.
func oneRelayWrite(w journal.Write) bool {
	p := w.First().Pipeline
	return p == sections.PipelineCommand || p == projects.PipelineProject
}

// resumeOneEvent finishes a workspace command or a project write with
// resume (its noun's recheck, exact resend and verification) and renders
// it as every resume is rendered (roster.pending-resume/v1).
func resumeOneEvent(a *cmdutil.Factory, ctx context.Context, w journal.Write,
	resume func(*cmdutil.Factory, context.Context, journal.Write) ([]relaypool.Delivered, error)) error {
	e := w.First()
	if resume == nil || len(w.Entries) != 1 {
		return &cmdutil.ExitError{Code: cmdutil.ExitRefused, Kind: "pending-incomplete",
			Err: fmt.Errorf("the unfinished write %s cannot be resumed by this roster", w.ID[:12])}
	}
	sent, err := resume(a, ctx, w)
	if err != nil {
		return err
	}
	out := report.PendingResume{Schema: report.PendingResumeSchema,
		Write: report.PendingWriteOf(w, map[string][]string{e.Event.ID: relaypool.NormalizeRelays(e.Relays)}, a.Io.Now()),
		Sent:  map[string][]relaypool.Delivered{}, Verified: true}
	if sent != nil {
		out.Sent[e.Event.ID] = sent
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	if sent != nil {
		fmt.Fprintln(a.Io.Out, termtext.Line(fmt.Sprintf("sent %s (kind %d) again to %s", e.Event.ID, e.Event.Kind, sent[0].URL)))
	} else {
		fmt.Fprintln(a.Io.Out, termtext.Line(fmt.Sprintf("%s (kind %d) was already applied by the relay", e.Event.ID, e.Event.Kind)))
	}
	fmt.Fprintf(a.Io.Out, "verified: %s; the write %s is finished\n", termtext.Line(e.Verify.What), w.ID[:12])
	return nil
}
