package change

import (
	"context"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/preflight"
	"github.com/spf13/cobra"
)

// NewRepoEditCmd is `roster repo edit`: one relationship change (plus, when
// required, one governance choice) previewed, checked and published.
func NewRepoEditCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdEdit(a, nil) }

// EditOptions are `roster repo edit` as its flags gave it, before any
// NIP-05 name among them is looked up.
type EditOptions struct {
	Factory *cmdutil.Factory
	// The relationship flags, as given (npub, hex or name@domain).
	AddMaintainer, RemoveMaintainer, LeadMaintainer, Acknowledge string
	AddModerator, RemoveModerator                                string
	NoLead, FixMaintainers, Force, DryRun                        bool
	Rewind                                                       []string
	// Metadata is a metadata edit (--name, --description, ...): then
	// the relationship flags are refused.
	Metadata bool
	meta     *metadataFlags
	cmd      *cobra.Command
}

// NewCmdEdit builds repo edit; runF, when given, runs instead of the
// change with the parsed options (tests).
func NewCmdEdit(a *cmdutil.Factory, runF func(context.Context, *EditOptions) error) *cobra.Command {
	o := &EditOptions{Factory: a}
	cmd := &cobra.Command{
		Use:   "edit",
		Short: "Change one maintainer or moderator relationship, or the announcement's metadata",
		Long: `roster repo edit changes exactly one relationship in your repository
announcement, or its metadata (below), shows every consequence first, and refuses anything you did
not ask for (nothing is published then, exit 3). There is no prompt: the
command either publishes what it previewed or explains why not.

  --add-maintainer <npub>     invite one maintainer (the first invite from a
                              sole maintainer also makes you lead)
  --remove-maintainer <npub>  withdraw your relationship to one maintainer
  --add-moderator <npub>      assign one moderator (they acknowledge with
                              roster repo accept --moderator)
  --remove-moderator <npub>   withdraw your assignment of one moderator
  --lead-maintainer <npub>    name yourself to prepare as lead with the complete
                              roster, or the prepared lead to hand the lead over;
                              with add/remove in a leadless or legacy repository
                              it is the required governance choice
  --no-lead-maintainer        keep a leadless repository leadless for this one
                              add or remove (of a maintainer or moderator)
  --acknowledge-maintainer-change <npub>
                              record an observed acceptance or departure
  --fix-maintainers           repair only the maintainers compatibility tag
  --force                     only for a state-only conflict on add: keep this
                              checkout's branches and tags as the state
  --rewind <ref>              with --force: allow it to move <ref> back from
                              (or remove it from) the state in effect, whose
                              commit this checkout does not contain

Every <npub> may also be a 64-hex key or a NIP-05 name (bob@example.com):
the name is looked up before anything else and the key it resolved to is
shown in the preview.`,
		Example: `  roster repo edit --add-maintainer npub1bob...
  roster repo edit --add-maintainer bob@example.com --dry-run   # NIP-05: looked up, shown in the preview
  roster repo edit --acknowledge-maintainer-change npub1bob...
  roster repo edit --add-maintainer npub1carol... --no-lead-maintainer
  roster repo edit --add-moderator npub1dave...
  roster repo edit --remove-moderator npub1dave... --dry-run --json
  roster repo edit --lead-maintainer npub1bob... --dry-run --json
  roster repo edit --description 'Makes widgets' --dry-run          # metadata only`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Metadata, o.cmd = o.meta.given(cmd), cmd // edit_metadata.go
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return editRun(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	cmdutil.StringArrayVar(f, &o.Rewind, "rewind", "with --force: a ref it may rewind in the state in effect (repeatable)")
	f.StringVar(&o.AddMaintainer, "add-maintainer", "", "invite one maintainer (npub, hex or NIP-05 name@domain)")
	f.StringVar(&o.RemoveMaintainer, "remove-maintainer", "", "withdraw your relationship to one maintainer")
	f.StringVar(&o.LeadMaintainer, "lead-maintainer", "", "declare the lead (yourself to prepare, or the prepared lead)")
	registerModeratorFlags(f, &o.AddModerator, &o.RemoveModerator)
	f.BoolVar(&o.NoLead, "no-lead-maintainer", false, "keep the repository leadless for this add or remove")
	f.StringVar(&o.Acknowledge, "acknowledge-maintainer-change", "", "record an observed acceptance or departure")
	f.BoolVar(&o.FixMaintainers, "fix-maintainers", false, "repair only the maintainers compatibility tag")
	f.BoolVar(&o.Force, "force", false, "state-only conflicts on add: keep this checkout's branches and tags")
	f.BoolVar(&o.DryRun, "dry-run", false, "preview only; publish nothing")
	o.meta = addMetadataFlags(a, cmd)
	addVerbose(cmd, a)
	return cmdutil.AddFlags(cmd, &a.Opts, cmdutil.RepoCommandFlags)
}

// editRun looks up the NIP-05 names among the flags, maps them to one
// intent and runs the change.
func editRun(ctx context.Context, o *EditOptions) error {
	a := o.Factory
	if o.Metadata {
		intent, err := o.meta.intent(o.cmd)
		if err != nil {
			return err
		}
		return runMutation(a, ctx, intent, o.DryRun, nil)
	}
	add, remove, lead, ack := o.AddMaintainer, o.RemoveMaintainer, o.LeadMaintainer, o.Acknowledge
	mod := moderatorFlags{add: o.AddModerator, remove: o.RemoveModerator}
	lookups, err := a.ResolvePubkeyArgs(ctx, map[string]*string{"add-maintainer": &add,
		"remove-maintainer": &remove, "lead-maintainer": &lead, "acknowledge-maintainer-change": &ack,
		"add-moderator": &mod.add, "remove-moderator": &mod.remove})
	if err != nil {
		return err
	}
	intent, err := editIntent(add, remove, lead, ack, o.NoLead, o.FixMaintainers, o.Force)
	if mod.set() {
		intent, err = mod.intent(add != "" || remove != "" || ack != "" || o.FixMaintainers, lead, o.NoLead, o.Force)
	}
	if err != nil {
		return err
	}
	if intent, err = withRewind(intent, o.Rewind); err != nil {
		return err
	}
	return runMutation(a, ctx, intent, o.DryRun, lookups)
}

// editIntent maps the flags to one intent; more than one relationship
// action is a usage error (exit 2).
func editIntent(add, remove, lead, ack string, noLead, fix, force bool) (preflight.Intent, error) {
	in := preflight.Intent{NoLead: noLead, Force: force}
	n := 0
	for _, set := range []bool{add != "", remove != "", ack != "", fix} {
		if set {
			n++
		}
	}
	if n > 1 {
		return in, cmdutil.UsageErr("change one relationship at a time: pass only one of --add-maintainer, --remove-maintainer, --acknowledge-maintainer-change, --fix-maintainers")
	}
	decode := func(flag, v string) (string, error) {
		if v == "" {
			return "", nil
		}
		pk, err := gitstate.DecodePubkey(v)
		if err != nil {
			return "", cmdutil.UsageErr("--%s %q: %v", flag, v, err)
		}
		return pk, nil
	}
	var err error
	if in.Lead, err = decode("lead-maintainer", lead); err != nil {
		return in, err
	}
	switch {
	case add != "":
		in.Action = preflight.ActAdd
		in.Subject, err = decode("add-maintainer", add)
	case remove != "":
		in.Action = preflight.ActRemove
		in.Subject, err = decode("remove-maintainer", remove)
	case ack != "":
		in.Action = preflight.ActAcknowledge
		in.Subject, err = decode("acknowledge-maintainer-change", ack)
	case fix:
		in.Action = preflight.ActFix
	case lead != "":
		in.Action = preflight.ActLead
	default:
		return in, cmdutil.UsageErr("nothing to change: pass --add-maintainer, --remove-maintainer, --add-moderator, --remove-moderator, --lead-maintainer, --acknowledge-maintainer-change or --fix-maintainers, or a metadata flag (--name, --description, --web, --clone, --relays, --hashtag)")
	}
	return in, err
}
