package workspace_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/workspace"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/spf13/cobra"
)

// parse runs the command build makes, with the flags the workspace noun
// gives every command of it, on args, catching the options its runF
// receives: flag parsing alone, no relay, no signer.
func parse[O any](build func(*cmdutil.Factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, error) {
	f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
	var got *O
	cmd := build(f, func(_ context.Context, o *O) error { got = o; return nil })
	cmdutil.AddLeafFlags(cmd, &f.Opts, cmdutil.OutputFlags|cmdutil.NetworkFlags|cmdutil.HomeFlag)
	cmdutil.AddFlags(cmd, &f.Opts, cmdutil.OutputFlags|cmdutil.NetworkFlags|cmdutil.HomeFlag)
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	return got, cmd.ExecuteContext(context.Background())
}

const channel = "3f1c2d4e-0000-4000-8000-000000000001"

func usage(err error) bool { return err != nil && cmdutil.AsExitError(err).Code == cmdutil.ExitUsage }

// Rule (flags are parsed without relays): show, list, import, create,
// grant and revoke take their flags into options (a person as typed: a
// NIP-05 name is looked up when it runs); a --role that is none of
// viewer, mover, manager is exit 2 before any lookup.
func TestWorkspaceCommandsParseIntoOptions(t *testing.T) {
	t.Parallel()
	if s, err := parse(workspace.NewCmdShow, "--owner", "npub1x", "--watch"); err != nil || s.Owner != "npub1x" || !s.Watch {
		t.Errorf("show: %v, %+v", err, s)
	}
	if l, err := parse(workspace.NewCmdList, "--relay", "wss://r.example"); err != nil || l == nil {
		t.Errorf("list: %v, %+v", err, l)
	}
	if l, err := parse(workspace.NewCmdList, "extra"); err == nil || l != nil {
		t.Errorf("list extra: %v, ran with %+v", err, l)
	}
	if m, err := parse(workspace.NewCmdImport); err != nil || m.Verb != "import" {
		t.Errorf("import: %v, %+v", err, m)
	}
	if m, err := parse(workspace.NewCmdCreate); err != nil || m.Verb != "create" {
		t.Errorf("create: %v, %+v", err, m)
	}
	for _, tc := range []struct {
		args []string
		role sections.Role
	}{{[]string{"bob@example.com"}, sections.RoleViewer}, {[]string{"npub1x", "--role", "mover"}, sections.RoleMover}, {[]string{"npub1x", "--role", "manager"}, sections.RoleManager}} {
		if g, err := parse(workspace.NewCmdGrant, tc.args...); err != nil || g.Person != tc.args[0] || g.Role != tc.role {
			t.Errorf("grant %v: %v, %+v", tc.args, err, g)
		}
	}
	if g, err := parse(workspace.NewCmdGrant, "bob@example.com", "--role", "owner"); !usage(err) || g != nil {
		t.Errorf("grant --role owner: %v, ran with %+v", err, g)
	}
	if r, err := parse(workspace.NewCmdRevoke, "npub1x", "--dry-run"); err != nil || r.Person != "npub1x" || !r.DryRun {
		t.Errorf("revoke: %v, %+v", err, r)
	}
}

// Rule: move and unassign take the channel as a UUID (normalized) and
// refuse anything else with exit 2; move needs --to.
func TestWorkspaceMoveAndUnassignParseTheChannel(t *testing.T) {
	t.Parallel()
	m, err := parse(workspace.NewCmdMove, strings.ToUpper(channel), "--to", "Projects", "--owner", "npub1o")
	if err != nil || m.Channel != channel || m.To != "Projects" || m.Owner != "npub1o" {
		t.Errorf("move: %v, %+v", err, m)
	}
	for _, bad := range [][]string{{channel}, {"not-a-uuid", "--to", "Projects"}} {
		if m, err := parse(workspace.NewCmdMove, bad...); !usage(err) || m != nil {
			t.Errorf("move %v: %v, ran with %+v", bad, err, m)
		}
	}
	if u, err := parse(workspace.NewCmdUnassign, channel); err != nil || u.Channel != channel || u.Owner != "" {
		t.Errorf("unassign: %v, %+v", err, u)
	}
	if u, err := parse(workspace.NewCmdUnassign, "00000000-0000-0000-0000-000000000000"); !usage(err) || u != nil {
		t.Errorf("unassign of the nil UUID: %v, ran with %+v", err, u)
	}
}

// Rule: each section subcommand takes its arguments and flags (--owner
// from the section command, --icon only when given); section move needs
// exactly one of --to, --before, --after, and a --to that counts from 1.
func TestWorkspaceSectionSubcommandsParseIntoOptions(t *testing.T) {
	t.Parallel()
	icon := func(p *string) string {
		if p == nil {
			return "<none>"
		}
		return *p
	}
	for _, tc := range []struct {
		args []string
		verb string
		want func(*workspace.SectionOptions) bool
	}{
		{[]string{"add", "Projects", "--icon", "folder", "--owner", "npub1o"}, "add", func(o *workspace.SectionOptions) bool {
			return slices.Equal(o.Args, []string{"Projects"}) && icon(o.Icon) == "folder" && o.Owner == "npub1o"
		}},
		{[]string{"rename", "Projects", "Active"}, "rename", func(o *workspace.SectionOptions) bool {
			return slices.Equal(o.Args, []string{"Projects", "Active"}) && o.Icon == nil
		}},
		{[]string{"reorder", "Inbox", "Projects", "Archive"}, "reorder", func(o *workspace.SectionOptions) bool { return len(o.Args) == 3 }},
		{[]string{"move", "Archive", "--to", "1"}, "move", func(o *workspace.SectionOptions) bool { return o.Placement == sections.Placement{Position: 1} }},
		{[]string{"move", "Inbox", "--after", "Projects"}, "move", func(o *workspace.SectionOptions) bool { return o.Placement == sections.Placement{After: "Projects"} }},
		{[]string{"remove", "Archive", "--dry-run"}, "remove", func(o *workspace.SectionOptions) bool { return o.DryRun && o.Args[0] == "Archive" }},
	} {
		if o, err := parse(workspace.NewCmdSection, tc.args...); err != nil || o.Verb != tc.verb || !tc.want(o) {
			t.Errorf("section %v: %v, %+v", tc.args, err, o)
		}
	}
	for _, bad := range [][]string{{"move", "Archive"}, {"move", "Archive", "--to", "1", "--before", "Inbox"}, {"move", "Archive", "--to", "0"}} {
		if o, err := parse(workspace.NewCmdSection, bad...); !usage(err) || o != nil {
			t.Errorf("section %v: %v, ran with %+v", bad, err, o)
		}
	}
	if o, err := parse(workspace.NewCmdSection, "remove", "Archive", "--icon", "x"); err == nil || o != nil {
		t.Errorf("section remove --icon: %v, ran with %+v", err, o)
	}
}
