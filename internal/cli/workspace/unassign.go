package workspace

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/channelid"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/spf13/cobra"
)

// newWorkspaceUnassignCmd is `roster workspace unassign`: a kind 9053 move
// with a null section_id, which takes a channel out of its section.
func NewCmdUnassign(a *cmdutil.Factory, runF func(context.Context, *UnassignOptions) error) *cobra.Command {
	var owner string
	cmd := &cobra.Command{
		Use:   "unassign <channel-uuid>",
		Short: "Take a channel out of its section (kind 9053 with no section; owner, mover, manager)",
		Long: `Signs a move whose section_id is null: the relay removes the channel's
assignment, so the channel shows in no section. A channel that is in no
section is refused before anything is signed.`,
		Example: `  roster workspace unassign 3f1c2d4e-0000-4000-8000-000000000001 --relay wss://relay.example
  roster workspace unassign <channel-uuid> --owner npub1... --relay wss://relay.example --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			channel, err := channelid.Parse(args[0])
			if err != nil {
				return cmdutil.UsageErr("%v", err)
			}
			if runF != nil {
				return runF(cmd.Context(), &UnassignOptions{Factory: a, Owner: owner, Channel: channel})
			}
			return workspaceWrite(a, cmd.Context(), owner, "unassign", sections.ActionMove,
				func(_ context.Context, _ *sections.Session, cur *sections.Current) (sections.Body, error) {
					return cur.W.UnassignBody(channel)
				},
				func(after *sections.Current) bool {
					for _, as := range after.W.Assignments {
						if as.ChannelID == channel {
							return false
						}
					}
					return true
				})
		},
	}
	cmd.Flags().StringVar(&owner, "owner", "", "the workspace owner (npub, hex or NIP-05 name@domain; default: you)")
	return cmd
}
