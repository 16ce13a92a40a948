package change

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/preflight"
	"github.com/spf13/cobra"
)

// NewRepoFollowLeadCmd is `roster repo follow-lead`: history sync, a direct
// pointer to the resolved lead, and the checkout anchored at the lead.
func NewRepoFollowLeadCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdFollowLead(a, nil) }

// FollowLeadOptions are `roster repo follow-lead` as its flags gave it.
type FollowLeadOptions struct {
	Factory *cmdutil.Factory
	DryRun  bool
}

// Intent is the change follow-lead asks for.
func (o *FollowLeadOptions) Intent() preflight.Intent {
	return preflight.Intent{Action: preflight.ActFollowLead}
}

// NewCmdFollowLead builds repo follow-lead; runF, when given, runs instead
// of the change with the parsed options (tests).
func NewCmdFollowLead(a *cmdutil.Factory, runF func(context.Context, *FollowLeadOptions) error) *cobra.Command {
	o := &FollowLeadOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "follow-lead",
		Short: "Sync your membership history, point directly to the lead, and select the lead's coordinate",
		Long: `roster repo follow-lead is idempotent. For a confirmed co-maintainer it
republishes your announcement with an active self-m, one direct active M to
the resolved lead, and every third-party interval copied as historical-only
(defer, or its numeric end). An active third-party assignment of yours is
converted only once the lead covers its subject; otherwise it refuses and
says who must add whom. For a maintainer the lead removed, it ends your
self-role and keeps the redirect. Then, after checking that the lead's own
coordinate resolves the same maintainers and state, it sets nostr.repo to the
lead's coordinate and rewrites every remote URL (origin, a pushurl, ...) that
named the coordinate you left, keeping its relay hints and protocol. Users
without a role only get the local switch.`,
		Example: `  roster repo follow-lead
  roster repo follow-lead --dry-run --json`,
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
