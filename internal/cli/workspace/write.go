// Every workspace command after import: one call to Session.Write, rendered.

package workspace

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/sections"
)

// workspaceWrite opens the workspace, writes one command (see
// sections.Session.Write) and renders the result.
func workspaceWrite(a *cmdutil.Factory, ctx context.Context, ownerFlag, verb string, action sections.Action,
	build func(context.Context, *sections.Session, *sections.Current) (sections.Body, error), applied func(*sections.Current) bool, lookups ...cmdutil.Nip05Lookup) error {
	if a.Opts.Offline {
		return cmdutil.UsageErr("`workspace %s` submits a command to the relay; drop --offline", verb)
	}
	ws, err := openWorkspace(a, ctx, ownerFlag, lookups...)
	if err != nil {
		return err
	}
	defer ws.close()
	if err := noticeUnfinished(a, ws); err != nil {
		return err
	}
	res, err := ws.Write(ctx, sections.Write{Verb: verb, Action: action, Build: build, Applied: applied})
	if err != nil {
		return render.PipelineErr(err)
	}
	before, after := res.Before.W.Revision, res.After.W.Revision
	out := report.WorkspaceChange{Schema: "roster.workspace.change/v1", Command: verb, Kind: res.Event.Kind, EventID: res.Event.ID,
		ActionID: res.Command.ActionID, CommandHash: res.Command.Hash, RevisionBefore: before, Revision: after, Workspace: ws.view(res.After),
		NIP05Lookups: ws.lookups.JSON()}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	fmt.Fprintf(a.Io.Out, "workspace %s: revision %d -> %d (event %s)\n", verb, before, after, res.Event.ID)
	// What changed, not the whole workspace again.
	prev := ws.view(res.Before)
	var who []string
	for _, r := range append(prev.Readers, out.Workspace.Readers...) {
		who = append(who, r.Npub)
	}
	pt, width := render.PeopleShown(a, ctx, nil, who...), render.TerminalWidth(a)
	lines := changes(prev, out.Workspace, pt.Of)
	if len(lines) == 0 {
		lines = []string{"nothing a reader sees changed"}
	}
	for _, l := range lines {
		render.FitLine(a.Io.Out, width, 4, "  "+l)
	}
	show := suggest.Roster("workspace", "show")
	if ownerFlag != "" {
		show = suggest.Roster("workspace", "show", "--owner", ownerFlag)
	}
	fmt.Fprintf(a.Io.Out, "the whole workspace: %s\n", termtext.Line(render.Selectors(a).Render(show)))
	return nil
}
