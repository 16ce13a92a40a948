package change

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/preflight"
	"github.com/spf13/cobra"
)

// NewRepoRepairCmd is `roster repo repair`: restore the role records a
// client that does not keep them dropped from your announcement.
func NewRepoRepairCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdRepair(a, nil) }

// RepairOptions are `roster repo repair` as its flags gave it.
type RepairOptions struct {
	Factory *cmdutil.Factory
	DryRun  bool
}

// Intent is the change repair asks for.
func (o *RepairOptions) Intent() preflight.Intent {
	return preflight.Intent{Action: preflight.ActRepair}
}

// NewCmdRepair builds repo repair; runF, when given, runs instead of the
// change with the parsed options (tests).
func NewCmdRepair(a *cmdutil.Factory, runF func(context.Context, *RepairOptions) error) *cobra.Command {
	o := &RepairOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "repair",
		Short: "Restore the role records another client dropped from your announcement",
		Long: `A client that rebuilds the announcement from its own fields (nak's git sync,
go-nostr's nip34 ToEvent) republishes it without its M, m and o role
records; roster repo and repo health then report role-records-dropped.

roster repo repair previews your current announcement with the role
records of its last complete version (the one this machine verified before
the republish, or a relay kept) restored: every other tag is kept byte for
byte, the maintainers tag is regenerated from the roles, and no timestamp
is invented. It publishes through the same pipeline as every membership
change (recheck, read-back, verification), and only when the repair changes
nobody's confirmed, invited or moderator status relative to the repository
as it resolves now; otherwise it refuses (exit 3, repair-changes-status),
lists each person whose status would change, and gives the repo edit
commands that make each change one at a time. Only your own announcement
is repaired.`,
		Example: `  roster repo repair --dry-run
  roster repo repair`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runMutation(a, cmd.Context(), o.Intent(), o.DryRun, nil)
		},
	}
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "preview only; publish nothing")
	addVerbose(cmd, a)
	return cmdutil.AddFlags(cmd, &a.Opts, cmdutil.RepoCommandFlags)
}
