package workspace

import (
	"context"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/workspace/channelid"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/spf13/cobra"
)

// NewWorkspaceCmd is `roster workspace`: NIP-SW owner-scoped channel-section
// workspaces (docs/workspaces.md).
func NewWorkspaceCmd(a *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workspace",
		Short: "Channel-section workspaces (NIP-SW): show, import, grant, revoke, move, unassign, sections",
		Long: `A workspace is one owner's channel sections on one relay (the community). The
relay is the authority: it applies typed, signed commands and publishes a
relay-signed projection (kind 30623) to the owner and the people they granted.
Section labels and icons are encrypted with a workspace key that only readers
hold; the relay sees structure, never names.

Roles: a viewer reads; a mover also moves channels; a manager also adds,
renames, reorders and removes sections; only the owner imports, grants and
revokes. Every command needs exactly one --relay and a signer.`,
		Example: `  roster workspace import --relay wss://relay.example
  roster workspace grant npub1... --role mover --relay wss://relay.example
  roster workspace show --owner npub1... --relay wss://relay.example --json
  roster workspace move 3f1c...-uuid --to Projects --owner npub1... --relay wss://relay.example
  roster workspace unassign 3f1c...-uuid --owner npub1... --relay wss://relay.example
  roster workspace section move Archive --to 1 --relay wss://relay.example`,
	}
	cmd.AddCommand(NewCmdShow(a, nil), NewCmdImport(a, nil), NewCmdCreate(a, nil), NewCmdList(a, nil), NewCmdGrant(a, nil),
		NewCmdRevoke(a, nil), NewCmdMove(a, nil), NewCmdUnassign(a, nil), NewCmdSection(a, nil))
	// Every command of it reads relays and prints JSON.
	cmdutil.AddLeafFlags(cmd, &a.Opts, cmdutil.OutputFlags|cmdutil.NetworkFlags|cmdutil.HomeFlag)
	render.AddFullFlag(cmd, a)
	return cmd
}

// NewCmdShow builds `roster workspace show`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdShow(a *cmdutil.Factory, runF func(context.Context, *ShowOptions) error) *cobra.Command {
	return newWorkspaceShowCmd(a, runF)
}

func newWorkspaceShowCmd(a *cmdutil.Factory, runF func(context.Context, *ShowOptions) error) *cobra.Command {
	var owner string
	var watching bool
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show a workspace's sections, assignments and readers, decrypted",
		Long: `Reads the relay's projection over an authenticated connection, verifies it
(signature, signer = the relay's NIP-11 self, kind, owner, version), applies
the revision rules against the cached one (older: ignored; a gap: full
refetch), decrypts labels with your key envelope and caches it. If the relay
cannot be reached, the last verified projection is shown marked stale.

With --watch it stays: one live subscription on the relay, authenticated as
you, and the workspace is printed again each time a new projection changes
it (with --json, one document per line). Ctrl-C ends it (exit 0).`,
		Example: `  roster workspace show --relay wss://relay.example                 # your own workspace
  roster workspace show --owner npub1... --relay wss://relay.example # one you were granted
  roster workspace show --owner npub1... --relay wss://relay.example --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if watching {
				if err := a.WatchFlagErr(); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(cmd.Context(), &ShowOptions{Factory: a, Owner: owner, Watch: watching})
			}
			ws, err := openWorkspace(a, cmd.Context(), owner)
			if err != nil {
				return err
			}
			defer ws.close()
			_ = noticeUnfinished(a, ws) // a read: an unreadable journal stops writes only
			if watching {
				return watchWorkspace(cmd.Context(), a, ws)
			}
			cur, err := ws.Load(cmd.Context())
			if err != nil {
				return render.PipelineErr(err)
			}
			v := ws.view(cur)
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, v)
			}
			RenderWorkspace(a, v)
			return nil
		},
	}
	cmd.Flags().StringVar(&owner, "owner", "", "the workspace owner (npub, hex or NIP-05 name@domain; default: you)")
	cmd.Flags().BoolVar(&watching, "watch", false, cmdutil.WatchHelp)
	return cmd
}

// NewCmdGrant builds `roster workspace grant`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdGrant(a *cmdutil.Factory, runF func(context.Context, *GrantOptions) error) *cobra.Command {
	return newWorkspaceGrantCmd(a, runF)
}

func newWorkspaceGrantCmd(a *cmdutil.Factory, runF func(context.Context, *GrantOptions) error) *cobra.Command {
	var role string
	cmd := &cobra.Command{
		Use:   "grant <npub>",
		Short: "Grant a person viewer, mover or manager access to your workspace (kind 9051)",
		Long: `Owner only. Wraps the current workspace key for the grantee with NIP-44 and
signs a grant; the relay installs the grant and the envelope in one
transaction. Granting again changes the role.

<npub> may also be a 64-hex key or a NIP-05 name (bob@example.com): the
name is looked up first and the key it resolved to printed before the
grant is sent.`,
		Example: `  roster workspace grant npub1... --relay wss://relay.example                # viewer
  roster workspace grant bob@example.com --relay wss://relay.example        # NIP-05: looked up, shown first
  roster workspace grant npub1... --role mover --relay wss://relay.example --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := sections.Role(role)
			if !sections.ValidGrantRole(r) {
				return cmdutil.UsageErr("--role %q: use viewer, mover or manager", role)
			}
			if runF != nil {
				return runF(cmd.Context(), &GrantOptions{Factory: a, Person: args[0], Role: r})
			}
			arg, lookups, err := a.ResolvePubkeyArg(cmd.Context(), "<npub>", args[0], true, typedRetry(a, map[string]string{"0": "<npub>"}))
			if err != nil {
				return err
			}
			grantee, err := gitstate.DecodePubkey(arg)
			if err != nil {
				return cmdutil.UsageErr("%v", err)
			}
			return workspaceWrite(a, cmd.Context(), "", "grant", sections.ActionGrant,
				func(ctx context.Context, ws *sections.Session, cur *sections.Current) (sections.Body, error) {
					return cur.W.GrantBody(ctx, ws.Signer, grantee, r)
				},
				func(after *sections.Current) bool {
					// A relay that publishes no role tags shows the grantee
					// as a reader of unknown role.
					got := after.W.Readers[grantee]
					return got == r || got == sections.RoleReader
				}, lookups...)
		},
	}
	cmd.Flags().StringVar(&role, "role", string(sections.RoleViewer), "viewer | mover | manager")
	return cmd
}

// NewCmdRevoke builds `roster workspace revoke`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdRevoke(a *cmdutil.Factory, runF func(context.Context, *RevokeOptions) error) *cobra.Command {
	return newWorkspaceRevokeCmd(a, runF)
}

func newWorkspaceRevokeCmd(a *cmdutil.Factory, runF func(context.Context, *RevokeOptions) error) *cobra.Command {
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "revoke <npub>",
		Short: "Revoke a person's access and rotate the workspace key (kind 9052)",
		Long: `Owner only. Creates a new workspace key at the next epoch, re-encrypts every
section's label and icon with it, and wraps it for you and every remaining
reader, never for the revoked one. The relay cuts the revoked reader's live
subscriptions at once. Revocation cannot erase what they already read.

<npub> may also be a 64-hex key or a NIP-05 name (bob@example.com), looked
up and shown before anything is sent.

Before it signs, roster says what the revocation takes away from whom: the
person's role and what it let them do, the key epoch that follows and the
readers the new key is wrapped for. --dry-run prints only that and sends
nothing.`,
		Example: `  roster workspace revoke npub1... --dry-run --relay wss://relay.example
  roster workspace revoke npub1... --relay wss://relay.example`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), &RevokeOptions{Factory: a, Person: args[0], DryRun: dryRun})
			}
			arg, lookups, err := a.ResolvePubkeyArg(cmd.Context(), "<npub>", args[0], true, typedRetry(a, map[string]string{"0": "<npub>"}))
			if err != nil {
				return err
			}
			gone, err := gitstate.DecodePubkey(arg)
			if err != nil {
				return cmdutil.UsageErr("%v", err)
			}
			consequence := revokeConsequence(a, gone)
			if dryRun {
				return workspaceDryRun(a, cmd.Context(), "", "revoke", sections.ActionRevoke, consequence, lookups...)
			}
			var epoch int64
			return workspaceWrite(a, cmd.Context(), "", "revoke", sections.ActionRevoke,
				previewing(a, "revoke", consequence,
					func(ctx context.Context, ws *sections.Session, cur *sections.Current) (sections.Body, error) {
						epoch = cur.W.KeyEpoch
						return cur.W.RevokeBody(ctx, ws.Signer, gone)
					}),
				func(after *sections.Current) bool {
					_, still := after.W.Readers[gone]
					return !still && after.W.KeyEpoch == epoch+1
				}, lookups...)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "say what the revocation takes away from whom; sign and send nothing")
	return cmd
}

// NewCmdMove builds `roster workspace move`; runF, when given, runs instead of
// the command with the parsed options (tests).
func NewCmdMove(a *cmdutil.Factory, runF func(context.Context, *MoveOptions) error) *cobra.Command {
	var owner, to string
	cmd := &cobra.Command{
		Use:   "move <channel-uuid> --to <section>",
		Short: "Move a channel into a section (kind 9053; owner, mover, manager)",
		Long:  `The section is named by its label (as shown by ` + "`roster workspace show`" + `) or its id.`,
		Example: `  roster workspace move 3f1c2d4e-0000-4000-8000-000000000001 --to Projects --relay wss://relay.example
  roster workspace move <channel-uuid> --to <section-uuid> --owner npub1... --relay wss://relay.example --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			channel, err := channelid.Parse(args[0])
			if err != nil {
				return cmdutil.UsageErr("%v", err)
			}
			if to == "" {
				return cmdutil.UsageErr("move needs --to <section>")
			}
			if runF != nil {
				return runF(cmd.Context(), &MoveOptions{Factory: a, Owner: owner, Channel: channel, To: to})
			}
			var section string
			return workspaceWrite(a, cmd.Context(), owner, "move", sections.ActionMove,
				func(_ context.Context, _ *sections.Session, cur *sections.Current) (sections.Body, error) {
					b, err := cur.W.MoveBody(channel, to)
					if err == nil {
						section = *b.SectionID
					}
					return b, err
				},
				func(after *sections.Current) bool {
					for _, as := range after.W.Assignments {
						if as.ChannelID == channel {
							return as.SectionID == section
						}
					}
					return false
				})
		},
	}
	cmd.Flags().StringVar(&owner, "owner", "", "the workspace owner (npub, hex or NIP-05 name@domain; default: you)")
	cmd.Flags().StringVar(&to, "to", "", "destination section: label or id")
	return cmd
}
