package project

import (
	"context"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/workspace/projects"
	"github.com/spf13/cobra"
)

// ShowOptions are `roster project show` as its argument and flags gave it.
type ShowOptions struct {
	Factory    *cmdutil.Factory
	Arg        string // as typed: an naddr or a coordinate
	Coordinate projects.Coordinate
	Hints      []string // the naddr's relay hints
	Watch      bool
}

// HealthOptions are `roster project health` as its argument and flags gave it.
type HealthOptions struct {
	Factory    *cmdutil.Factory
	Arg        string
	Coordinate projects.Coordinate
	Hints      []string
	Strict     string // "", "maintainers" or "all"
	Format     string // text or github
}

// ChangeOptions are `roster project relate` and `unrelate` as their
// arguments gave them.
type ChangeOptions struct {
	Factory    *cmdutil.Factory
	Relate     bool // relate, else unrelate
	Arg        string
	Coordinate projects.Coordinate
	Channels   []string // normalized UUIDs
	Patch      projects.Patch
}

// ListOptions are `roster project list` as its flags gave it.
type ListOptions struct {
	Factory *cmdutil.Factory
	Owner   string // --owner as given (npub, hex or NIP-05 name)
}

// IdentityOptions are `roster project create`, `update` and `delete` as
// their argument and flags gave them: the fields set (the member
// repositories as given; they are looked up only when it runs).
type IdentityOptions struct {
	Factory               *cmdutil.Factory
	Arg                   string // the d, naddr or coordinate
	Fields                projects.Fields
	AddRepos, RemoveRepos []string
	ForceUnresolved       bool
	DryRun, Yes           bool
}

func (o *IdentityOptions) set(arg string, fl projects.Fields, f *projectFieldFlags, pf projectPreviewFlags) {
	o.Arg, o.Fields, o.DryRun, o.Yes = arg, fl, pf.dryRun, pf.yes
	if f != nil {
		o.AddRepos, o.RemoveRepos, o.ForceUnresolved = f.repos.add, f.repos.remove, f.repos.force
	}
}

// NewCmdRelate builds project relate; runF, when given, runs instead of
// the change with the parsed options (tests).
func NewCmdRelate(a *cmdutil.Factory, runF func(context.Context, *ChangeOptions) error) *cobra.Command {
	return newProjectChangeCmd(a, true, runF)
}

// NewCmdUnrelate builds project unrelate, as NewCmdRelate.
func NewCmdUnrelate(a *cmdutil.Factory, runF func(context.Context, *ChangeOptions) error) *cobra.Command {
	return newProjectChangeCmd(a, false, runF)
}
