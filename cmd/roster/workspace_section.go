package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/roster-cli/roster/workspace/sections"
)

// newWorkspaceSectionCmd is `roster workspace section add|rename|reorder|remove`
// (kind 9054): each subcommand writes one manage command and checks that the
// projection shows it.
func newWorkspaceSectionCmd(a *app) *cobra.Command {
	var owner, icon string
	cmd := &cobra.Command{
		Use:   "section",
		Short: "Add, rename, reorder or remove sections (kind 9054; owner, manager)",
		Example: `  roster workspace section add Projects --icon folder --relay wss://relay.example
  roster workspace section rename Projects "Active projects" --relay wss://relay.example
  roster workspace section reorder "Active projects" Archive --relay wss://relay.example
  roster workspace section remove Archive --relay wss://relay.example --json`,
	}
	cmd.PersistentFlags().StringVar(&owner, "owner", "", "the workspace owner (npub or hex; default: you)")
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
			var id string
			return a.workspaceWrite(c.Context(), owner, "section add", sections.ActionManage,
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
			var id string
			return a.workspaceWrite(c.Context(), owner, "section rename", sections.ActionManage,
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
			var ids []string
			return a.workspaceWrite(c.Context(), owner, "section reorder", sections.ActionManage,
				func(_ context.Context, _ *sections.Session, cur *sections.Current) (sections.Body, error) {
					b, err := cur.W.ReorderBody(args)
					if err == nil {
						ids = b.SectionIDs
					}
					return b, err
				},
				func(after *sections.Current) bool {
					if len(after.W.Sections) != len(ids) {
						return false
					}
					for i, s := range after.W.Sections {
						if s.ID != ids[i] {
							return false
						}
					}
					return true
				})
		},
	}
	remove := &cobra.Command{
		Use:     "remove <section>",
		Short:   "Remove a section; its channels become unassigned",
		Example: `  roster workspace section remove Archive --relay wss://relay.example`,
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var id string
			return a.workspaceWrite(c.Context(), owner, "section remove", sections.ActionManage,
				func(_ context.Context, _ *sections.Session, cur *sections.Current) (sections.Body, error) {
					b, err := cur.W.RemoveBody(args[0])
					if err == nil {
						id = b.SectionID
					}
					return b, err
				},
				func(after *sections.Current) bool { _, err := after.W.FindSection(id); return err != nil })
		},
	}
	cmd.AddCommand(add, rename, reorder, remove)
	return cmd
}
