package change

import (
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/preflight"
	"github.com/spf13/cobra"
)

// NewRepoLeaveCmd is `roster repo leave`: end your own role, keep the redirect.
func NewRepoLeaveCmd(a *cmdutil.Factory) *cobra.Command {
	var dryRun bool
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
			return runMutation(a, cmd.Context(), preflight.Intent{Action: preflight.ActLeave}, dryRun, nil)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "preview only; publish nothing")
	return cmd
}
