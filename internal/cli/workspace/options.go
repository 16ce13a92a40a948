package workspace

import (
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/sections"
)

// ShowOptions are `roster workspace show` as its flags gave it.
type ShowOptions struct {
	Factory *cmdutil.Factory
	Owner   string // --owner as given; "" is you
	Watch   bool
}

// MigrateOptions are `roster workspace import` and `create`: Verb says which.
type MigrateOptions struct {
	Factory *cmdutil.Factory
	Verb    string
}

// ListOptions are `roster workspace list`: only the shared flags.
type ListOptions struct {
	Factory *cmdutil.Factory
}

// GrantOptions are `roster workspace grant` as its argument and flags gave
// it: the person as typed (a NIP-05 name is looked up when it runs).
type GrantOptions struct {
	Factory *cmdutil.Factory
	Person  string
	Role    sections.Role
}

// RevokeOptions are `roster workspace revoke` as its argument and flags gave it.
type RevokeOptions struct {
	Factory *cmdutil.Factory
	Person  string
	DryRun  bool
}

// MoveOptions are `roster workspace move` as its argument and flags gave it.
type MoveOptions struct {
	Factory *cmdutil.Factory
	Owner   string
	Channel string // the channel UUID, parsed
	To      string // the section: label or id
}

// UnassignOptions are `roster workspace unassign` as its argument and flags gave it.
type UnassignOptions struct {
	Factory *cmdutil.Factory
	Owner   string
	Channel string
}

// SectionOptions are a `roster workspace section` subcommand (Verb: add,
// rename, reorder, move, remove) as its arguments and flags gave it.
type SectionOptions struct {
	Factory   *cmdutil.Factory
	Verb      string
	Owner     string
	Args      []string
	Icon      *string // --icon when given (add, rename)
	Placement sections.Placement
	DryRun    bool
}
