package change

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/preflight"
	"github.com/spf13/cobra"
)

// LeaveOptions are `roster repo leave` as its flags gave it.
type LeaveOptions struct {
	Factory *cmdutil.Factory
	DryRun  bool
}

// Intent is the change leave asks for.
func (o *LeaveOptions) Intent() preflight.Intent { return preflight.Intent{Action: preflight.ActLeave} }

// NewRepoLeaveCmd is `roster repo leave`: end your own role, keep the redirect.
func NewRepoLeaveCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdLeave(a, nil) }

// NewCmdLeave builds repo leave; runF, when given, runs instead of the
// change with the parsed options (tests).
func NewCmdLeave(a *cmdutil.Factory, runF func(context.Context, *LeaveOptions) error) *cobra.Command {
	o := &LeaveOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "leave",
		Short: "End your maintainer role, keeping your coordinate's redirect to the lead",
		Long: `roster repo leave publishes your announcement with your self-role ended now
and your active M redirect to the lead kept, so your coordinate keeps
forwarding. You return only by accepting a later invitation. If leaving would
disconnect other maintainers, it refuses (exit 3) and names them.`,
		Example: `  roster repo leave
  roster repo leave --dry-run`,
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
