package workspace

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/spf13/cobra"
)

// newWorkspaceSectionCmd is `roster workspace section add|rename|reorder|remove`
// (kind 9054): each subcommand writes one manage command and checks that the
// projection shows it.
func NewCmdSection(a *cmdutil.Factory, runF func(context.Context, *SectionOptions) error) *cobra.Command {
	var owner, icon string
	cmd := &cobra.Command{
		Use:   "section",
		Short: "Add, rename, reorder, move or remove sections (kind 9054; owner, manager)",
		Example: `  roster workspace section add Projects --icon folder --relay wss://relay.example
  roster workspace section rename Projects "Active projects" --relay wss://relay.example
  roster workspace section reorder "Active projects" Archive --relay wss://relay.example
  roster workspace section move Archive --to 1 --relay wss://relay.example
  roster workspace section remove Archive --relay wss://relay.example --json`,
	}
	cmd.PersistentFlags().StringVar(&owner, "owner", "", "the workspace owner (npub, hex or NIP-05 name@domain; default: you)")
	iconFlag := func(c *cobra.Command) {
		c.Flags().StringVar(&icon, "icon", "", "section icon (encrypted like the label)")
	}
	iconPtr := func(c *cobra.Command, keep *string) *string {
		if c.Flags().Changed("icon") {
			return &icon
		}
		return keep
	}
	add := &cobra.Command{
		Use:     "add <label>",
		Short:   "Append a new section",
		Example: `  roster workspace section add Projects --icon folder --relay wss://relay.example`,
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(c.Context(), &SectionOptions{Factory: a, Verb: "add", Owner: owner, Args: args, Icon: iconPtr(c, nil)})
			}
			var id string
			return workspaceWrite(a, c.Context(), owner, "section add", sections.ActionManage,
				func(_ context.Context, _ *sections.Session, cur *sections.Current) (sections.Body, error) {
					b, err := cur.W.AddBody(args[0], iconPtr(c, nil))
					if err == nil {
						id = b.SectionID
					}
					return b, err
				},
				func(after *sections.Current) bool {
					s, err := after.W.FindSection(id)
					return err == nil && s.Label == args[0]
				})
		},
	}
	iconFlag(add)
	rename := &cobra.Command{
		Use:     "rename <section> <new-label>",
		Short:   "Rename a section (and change its icon with --icon)",
		Example: `  roster workspace section rename Projects "Active projects" --relay wss://relay.example`,
		Args:    cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(c.Context(), &SectionOptions{Factory: a, Verb: "rename", Owner: owner, Args: args, Icon: iconPtr(c, nil)})
			}
			var id string
			return workspaceWrite(a, c.Context(), owner, "section rename", sections.ActionManage,
				func(_ context.Context, _ *sections.Session, cur *sections.Current) (sections.Body, error) {
					sec, err := cur.W.FindSection(args[0])
					if err != nil {
						return nil, err
					}
					b, err := cur.W.RenameBody(sec.ID, args[1], iconPtr(c, sec.Icon))
					if err == nil {
						id = b.SectionID
					}
					return b, err
				},
				func(after *sections.Current) bool {
					s, err := after.W.FindSection(id)
					return err == nil && s.Label == args[1]
				})
		},
	}
	iconFlag(rename)
	reorder := &cobra.Command{
		Use:     "reorder <section>...",
		Short:   "Set the complete order of the sections",
		Example: `  roster workspace section reorder Inbox Projects Archive --relay wss://relay.example`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(c.Context(), &SectionOptions{Factory: a, Verb: "reorder", Owner: owner, Args: args})
			}
			var ids []string
			return workspaceWrite(a, c.Context(), owner, "section reorder", sections.ActionManage,
				func(_ context.Context, _ *sections.Session, cur *sections.Current) (sections.Body, error) {
					b, err := cur.W.ReorderBody(args)
					if err == nil {
						ids = b.SectionIDs
					}
					return b, err
				},
				func(after *sections.Current) bool { return sameOrder(after.W.Sections, ids) })
		},
	}
	var dryRun bool
	remove := &cobra.Command{
		Use:   "remove <section>",
		Short: "Remove a section; its channels become unassigned",
		Long: `Removes the section for every reader; the channels in it become unassigned
(in no section). Before it signs, roster names the section and each channel
that becomes unassigned; --dry-run prints only that and sends nothing.`,
		Example: `  roster workspace section remove Archive --dry-run --relay wss://relay.example
  roster workspace section remove Archive --relay wss://relay.example`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(c.Context(), &SectionOptions{Factory: a, Verb: "remove", Owner: owner, Args: args, DryRun: dryRun})
			}
			consequence := removeConsequence(a, args[0])
			if dryRun {
				return workspaceDryRun(a, c.Context(), owner, "section remove", sections.ActionManage, consequence)
			}
			var id string
			return workspaceWrite(a, c.Context(), owner, "section remove", sections.ActionManage,
				previewing(a, "section remove", consequence,
					func(_ context.Context, _ *sections.Session, cur *sections.Current) (sections.Body, error) {
						b, err := cur.W.RemoveBody(args[0])
						if err == nil {
							id = b.SectionID
						}
						return b, err
					}),
				func(after *sections.Current) bool { _, err := after.W.FindSection(id); return err != nil })
		},
	}
	remove.Flags().BoolVar(&dryRun, "dry-run", false, "name the section and the channels that become unassigned; sign and send nothing")
	cmd.AddCommand(add, rename, reorder, newWorkspaceSectionMoveCmd(a, &owner, runF), remove)
	return cmd
}

// newWorkspaceSectionMoveCmd is `workspace section move`: one section to a
// new place, sent as the complete reorder NIP-SW needs (built from the
// current projection), so nobody has to name every section.
func newWorkspaceSectionMoveCmd(a *cmdutil.Factory, owner *string, runF func(context.Context, *SectionOptions) error) *cobra.Command {
	var to sections.Placement
	c := &cobra.Command{
		Use:   "move <section> --to <position> | --before <section> | --after <section>",
		Short: "Move one section to a position, or before or after another section",
		Long: `Positions count from 1, as ` + "`roster workspace show`" + ` numbers sections. roster
builds the complete order from the current projection, with only this
section's place changed, and signs it as one reorder. A move that changes
nothing is refused before signing.`,
		Example: `  roster workspace section move Archive --to 1 --relay wss://relay.example
  roster workspace section move Archive --before Projects --relay wss://relay.example
  roster workspace section move Inbox --after Projects --owner npub1... --relay wss://relay.example --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			set := 0
			for _, f := range []string{"to", "before", "after"} {
				if c.Flags().Changed(f) {
					set++
				}
			}
			if set != 1 {
				return cmdutil.UsageErr("say where the section goes with exactly one of --to <position>, --before <section>, --after <section>")
			}
			if c.Flags().Changed("to") && to.Position < 1 {
				return cmdutil.UsageErr("--to %d: positions count from 1, as `roster workspace show` numbers sections", to.Position)
			}
			if runF != nil {
				return runF(c.Context(), &SectionOptions{Factory: a, Verb: "move", Owner: *owner, Args: args, Placement: to})
			}
			var ids []string
			return workspaceWrite(a, c.Context(), *owner, "section move", sections.ActionManage,
				func(_ context.Context, _ *sections.Session, cur *sections.Current) (sections.Body, error) {
					b, err := cur.W.MoveSectionBody(args[0], to)
					if err == nil {
						ids = b.SectionIDs
					}
					return b, err
				},
				func(after *sections.Current) bool { return sameOrder(after.W.Sections, ids) })
		},
	}
	c.Flags().IntVar(&to.Position, "to", 0, "the 1-based position to move the section to")
	c.Flags().StringVar(&to.Before, "before", "", "place the section right before this one (label or id)")
	c.Flags().StringVar(&to.After, "after", "", "place the section right after this one (label or id)")
	return c
}

// sameOrder reports whether the sections are exactly ids, in order.
func sameOrder(secs []sections.Section, ids []string) bool {
	if len(secs) != len(ids) {
		return false
	}
	for i, s := range secs {
		if s.ID != ids[i] {
			return false
		}
	}
	return true
}
