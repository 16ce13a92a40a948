package change

import (
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/hooks"
	"github.com/roster-cli/roster/preflight"
	"github.com/spf13/cobra"
)

// NewRepoAcceptCmd is `roster repo accept`: the canonical acceptance of the
// offered co-maintainer role, nothing more.
func NewRepoAcceptCmd(a *cmdutil.Factory) *cobra.Command {
	var force, dryRun, moderator bool
	var rewind []string
	cmd := &cobra.Command{
		Use:   "accept",
		Short: "Accept the maintainer (or, with --moderator, moderator) invitation of the selected repository",
		Long: `roster repo accept publishes your acceptance of the offered co-maintainer
role: an active lead relationship (M to the resolved lead; m to the inviter in
a leadless or legacy repository) and your active self-m. It never makes you
lead, adds anybody, or drops your other relationships; if your existing
same-identifier announcement would join another repository, change identity
or replace Git state, it refuses (exit 3) and explains what to do. Without an
announcement of your own, yours starts from the repository's shared fields
(name, description, web, hashtags, r and u), never the inviter's clone
servers, relays or Blossom servers, which stay theirs.

Run with --repo in a clone that names no repository (a plain git clone: no
nostr.repo, no nostr:// remote), it links the clone: git config nostr.repo
becomes the accepted coordinate's naddr, with a relay hint, so roster repo
and the hooks work there with no further step. A checkout that selects a
different coordinate is left as it is; the git config nostr.repo command is
printed instead.

With --moderator it acknowledges the moderator role you are assigned: it
publishes only your active self-o (no lead pointer, no maintainer role);
you are a confirmed moderator because the lead (in a leadless repository, a
confirmed maintainer) assigns you, never by your own record alone.`,
		Example: `  roster repo accept
  roster repo accept --dry-run --json
  roster repo accept --moderator`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			intent := preflight.Intent{Action: preflight.ActAccept, Force: force}
			if moderator {
				intent.Action = preflight.ActAcceptModerator
			}
			intent, err := withRewind(intent, rewind)
			if err != nil {
				return err
			}
			if err := runMutation(a, cmd.Context(), intent, dryRun, nil); err != nil {
				return err
			}
			if !dryRun && !moderator { // hooks guard pushes, which a moderator does not make
				hooks.HooksTip(a)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "state-only conflicts: keep this checkout's branches and tags")
	cmd.Flags().StringArrayVar(&rewind, "rewind", nil, "with --force: a ref it may rewind in the state in effect (repeatable)")
	cmd.Flags().BoolVar(&moderator, "moderator", false, "acknowledge the moderator role you are assigned (an active self-o)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "preview only; publish nothing")
	return cmd
}
