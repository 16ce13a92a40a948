package change

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/hooks"
	"github.com/roster-cli/roster/preflight"
	"github.com/spf13/cobra"
)

// NewRepoAcceptCmd is `roster repo accept`: the canonical acceptance of the
// offered co-maintainer role, nothing more.
func NewRepoAcceptCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdAccept(a, nil) }

// AcceptOptions are `roster repo accept` as its flags gave it.
type AcceptOptions struct {
	Factory                  *cmdutil.Factory
	Force, DryRun, Moderator bool
	Rewind                   []string
}

// Intent is the change accept asks for; a bad --rewind is exit 2.
func (o *AcceptOptions) Intent() (preflight.Intent, error) {
	intent := preflight.Intent{Action: preflight.ActAccept, Force: o.Force}
	if o.Moderator {
		intent.Action = preflight.ActAcceptModerator
	}
	return withRewind(intent, o.Rewind)
}

// NewCmdAccept builds repo accept; runF, when given, runs instead of the
// change with the parsed options (tests).
func NewCmdAccept(a *cmdutil.Factory, runF func(context.Context, *AcceptOptions) error) *cobra.Command {
	o := &AcceptOptions{Factory: a}
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
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			intent, err := o.Intent()
			if err != nil {
				return err
			}
			if err := runMutation(a, cmd.Context(), intent, o.DryRun, nil); err != nil {
				return err
			}
			if !o.DryRun && !o.Moderator { // hooks guard pushes, which a moderator does not make
				hooks.HooksTip(a)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.Force, "force", false, "state-only conflicts: keep this checkout's branches and tags")
	cmdutil.StringArrayVar(cmd.Flags(), &o.Rewind, "rewind", "with --force: a ref it may rewind in the state in effect (repeatable)")
	cmd.Flags().BoolVar(&o.Moderator, "moderator", false, "acknowledge the moderator role you are assigned (an active self-o)")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "preview only; publish nothing")
	addVerbose(cmd, a)
	return cmdutil.AddFlags(cmd, &a.Opts, cmdutil.RepoCommandFlags)
}
