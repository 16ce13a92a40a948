// `roster workspace list`: one call to sections.Session.List, rendered.

package workspace

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// NewCmdList builds `roster workspace list`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdList(a *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newWorkspaceListCmd(a, runF)
}

func newWorkspaceListCmd(a *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the workspaces on the relay whose projection names you as a reader",
		Long: `Asks the relay, over a NIP-42-authenticated connection, for every workspace
projection (kind 30623) its NIP-11 self signed with a p tag naming you: your
own workspace and every one you were granted. Each is verified as its owner's
projection; your role is the one the relay publishes (reader when it does not
say). Exit 4 when the relay does not answer.`,
		Example: `  roster workspace list --relay wss://relay.example
  roster workspace list --relay wss://relay.example --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &ListOptions{Factory: a})
			}
			ws, err := openWorkspace(a, cmd.Context(), "")
			if err != nil {
				return err
			}
			defer ws.close()
			res, err := ws.List(cmd.Context())
			if err != nil {
				return render.PipelineErr(err)
			}
			out := report.WorkspaceList{Schema: "roster.workspace.list/v1", Relay: ws.Relay, RelaySelf: ws.Self, Community: ws.Community,
				You: render.WsPerson(ws.Me, ""), Workspaces: []report.WorkspaceListed{}, Rejected: res.Rejected}
			for _, l := range res.Workspaces {
				show := suggest.Roster("workspace", "show", "--owner", render.WsPerson(l.Owner, "").Npub, "--relay", ws.Relay).String()
				out.Workspaces = append(out.Workspaces, report.WorkspaceListed{Owner: render.WsPerson(l.Owner, "owner"), Role: string(l.Role),
					Revision: l.Revision, LayoutRevision: l.LayoutRevision, KeyEpoch: l.KeyEpoch, ProjectionEventID: l.EventID, Show: show})
			}
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, out)
			}
			w := a.Io.Out
			// Short npubs and wrapped rows on a terminal; the show
			// command stays whole on its line, full npub and all, to paste.
			who := []string{out.You.Npub}
			for _, l := range out.Workspaces {
				who = append(who, l.Owner.Npub)
			}
			pt, width := render.PeopleShown(a, cmd.Context(), []string{ws.Relay}, who...), render.TerminalWidth(a)
			render.FitLine(w, width, 4, fmt.Sprintf("workspaces on %s that name %s as a reader: %d", termtext.Line(ws.Community), pt.Of(out.You.Npub), len(out.Workspaces)))
			for _, l := range out.Workspaces {
				render.FitLine(w, width, 4, fmt.Sprintf("  %s  you: %s, revision %d", pt.Of(l.Owner.Npub), l.Role, l.Revision))
				fmt.Fprintf(w, "    %s\n", l.Show)
			}
			for _, r := range out.Rejected {
				render.FitLine(w, width, 11, "  ignored  "+termtext.Line(r))
			}
			if len(out.Workspaces) == 0 {
				fmt.Fprintf(w, "  none: start yours with %s\n", suggest.Roster("workspace", "create", "--relay", ws.Relay))
			}
			return nil
		},
	}
}
