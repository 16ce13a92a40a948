package workspace

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/spf13/cobra"
)

// NewCmdImport builds `roster workspace import`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdImport(a *cmdutil.Factory, runF func(context.Context, *MigrateOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "import",
		Short: "Migrate your legacy channel-sections blob into a relay workspace (kind 9050)",
		Long: `Owner only, once. Reads your newest valid kind 30078 d=channel-sections event,
decrypts it, canonicalizes and hashes it, creates a fresh workspace key and
your key envelope, encrypts every label and icon, and submits a revision-zero
import. roster switches to the relay's workspace only after reading back the
matching migration marker; it never writes the legacy blob.`,
		Example: `  roster workspace import --relay wss://relay.example
  roster workspace import --relay wss://relay.example --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &MigrateOptions{Factory: a, Verb: "import"})
			}
			return workspaceMigrate(a, cmd.Context(), "import", "roster.workspace.import/v1", "imported legacy channel-sections event",
				func(ctx context.Context, ws *wsSession) (*sections.ImportResult, error) { return ws.Import(ctx) })
		},
	}
}

// NewCmdCreate builds `roster workspace create`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdCreate(a *cmdutil.Factory, runF func(context.Context, *MigrateOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "create",
		Short: "Start an empty workspace when you have no legacy channel-sections blob (kind 9050)",
		Long: `Owner only, once, and only when the relay shows no workspace of yours and holds
no kind 30078 d=channel-sections event of yours (with one, use import: nothing
is lost). Publishes an empty channel-sections event, NIP-44 encrypted to you,
as the migration source, then imports it as revision zero: a fresh workspace
key, your key envelope, no sections. roster switches only once the matching
migration marker reads back; from then on it never writes the legacy event.
Add sections with ` + "`workspace section add`" + `.`,
		Example: `  roster workspace create --relay wss://relay.example
  roster workspace section add Projects --relay wss://relay.example`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &MigrateOptions{Factory: a, Verb: "create"})
			}
			return workspaceMigrate(a, cmd.Context(), "create", "roster.workspace.create/v1", "created an empty workspace; its migration source is the empty channel-sections event roster published,",
				func(ctx context.Context, ws *wsSession) (*sections.ImportResult, error) { return ws.Create(ctx) })
		},
	}
}

// workspaceMigrate runs an import-shaped pipeline (import, or create, which
// imports an empty blob it publishes) and renders its result; verb names
// the command, schema its JSON, what the source event in the human line.
func workspaceMigrate(a *cmdutil.Factory, ctx context.Context, verb, schema, what string,
	run func(context.Context, *wsSession) (*sections.ImportResult, error)) error {
	if a.Opts.Offline {
		return cmdutil.UsageErr("`workspace %s` submits a command to the relay; drop --offline", verb)
	}
	ws, err := openWorkspace(a, ctx, "")
	if err != nil {
		return err
	}
	defer ws.close()
	if err := noticeUnfinished(a, ws); err != nil {
		return err
	}
	res, err := run(ctx, ws)
	if err != nil {
		return render.PipelineErr(err)
	}
	out := report.WorkspaceImport{Schema: schema, SourceEventID: res.SourceEventID, SourceHash: res.SourceHash,
		EventID: res.Event.ID, ActionID: res.Command.ActionID, CommandHash: res.Command.Hash, Switched: true,
		Resumed: res.Resumed, Replayed: res.Replayed, Workspace: ws.view(res.After)}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	if res.Resumed {
		how := "was already applied"
		if res.Replayed {
			how = "was sent again byte for byte"
		}
		fmt.Fprintf(a.Io.Out, "the import kept from an earlier attempt (event %s, action %s) %s\n", res.Event.ID, res.Command.ActionID, how)
	}
	fmt.Fprintf(a.Io.Out, "%s %s (hash %s); migration marker verified, the relay workspace is now authoritative\n", what, res.SourceEventID, res.SourceHash)
	RenderWorkspace(a, out.Workspace)
	return nil
}
