package project_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/project"
	"github.com/spf13/cobra"
)

// parse runs the command build makes, with the flags the project noun
// gives every command of it, on args, catching the options its runF
// receives: flag parsing alone, no relay, no signer.
func parse[O any](build func(*cmdutil.Factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, *cmdutil.Factory, error) {
	f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
	var got *O
	cmd := build(f, func(_ context.Context, o *O) error { got = o; return nil })
	cmdutil.AddFlags(cmd, &f.Opts, cmdutil.OutputFlags|cmdutil.NetworkFlags|cmdutil.HomeFlag)
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	return got, f, cmd.ExecuteContext(context.Background())
}

const (
	owner = "1111111111111111111111111111111111111111111111111111111111111111"
	coord = "30621:" + owner + ":my-project"
	chanA = "22222222-2222-4222-8222-222222222222"
	chanB = "33333333-3333-4333-8333-333333333333"
)

func usage(err error) bool { return err != nil && cmdutil.AsExitError(err).Code == cmdutil.ExitUsage }

// Rule (flags are parsed without relays): project show's and health's
// coordinate, --watch, --strict and --format land in their options; a
// coordinate that is none, an unknown --strict scope, --format github
// with --json and health --offline are exit 2 before anything is read.
func TestProjectReadsParseIntoOptions(t *testing.T) {
	t.Parallel()
	s, f, err := parse(project.NewCmdShow, coord, "--watch", "--relay", "wss://r.example", "--json")
	if err != nil || s.Arg != coord || s.Coordinate.Owner != owner || s.Coordinate.D != "my-project" || !s.Watch || !f.Opts.JSON || len(f.Opts.Relays) != 1 {
		t.Errorf("show: %v, %+v", err, s)
	}
	for _, tc := range []struct {
		args   []string
		strict string
		format string
	}{{[]string{coord}, "", "text"}, {[]string{coord, "--strict"}, "maintainers", "text"},
		{[]string{coord, "--strict=all", "--format", "github"}, "all", "github"}, {[]string{coord, "--strict=false"}, "", "text"}} {
		if h, _, err := parse(project.NewCmdHealth, tc.args...); err != nil || h.Strict != tc.strict || h.Format != tc.format || h.Coordinate.D != "my-project" {
			t.Errorf("health %v: %v, %+v", tc.args, err, h)
		}
	}
	for _, bad := range [][]string{{"30621:nothex:d"}, {coord, "extra"}} {
		if s, _, err := parse(project.NewCmdShow, bad...); err == nil || s != nil {
			t.Errorf("show %v: %v, ran with %+v", bad, err, s)
		}
	}
	for _, bad := range [][]string{{coord, "--strict=some"}, {coord, "--format", "github", "--json"}, {coord, "--offline"}, {"my-project"}} {
		if h, _, err := parse(project.NewCmdHealth, bad...); !usage(err) || h != nil {
			t.Errorf("health %v: %v, ran with %+v", bad, err, h)
		}
	}
}

// Rule: relate and unrelate take the project and at least one channel,
// normalized, into one patch; a channel that is no UUID is exit 2.
func TestProjectRelateParsesChannelsIntoOnePatch(t *testing.T) {
	t.Parallel()
	o, _, err := parse(project.NewCmdRelate, coord, strings.ToUpper(chanB), chanA)
	if err != nil || !o.Relate || !slices.Equal(o.Channels, []string{chanB, chanA}) || !slices.Equal(o.Patch.Add, []string{chanA, chanB}) || len(o.Patch.Remove) != 0 {
		t.Errorf("relate: %v, %+v", err, o)
	}
	o, _, err = parse(project.NewCmdUnrelate, coord, chanA)
	if err != nil || o.Relate || !slices.Equal(o.Patch.Remove, []string{chanA}) {
		t.Errorf("unrelate: %v, %+v", err, o)
	}
	for _, bad := range [][]string{{coord}, {coord, "not-a-uuid"}} {
		if o, _, err := parse(project.NewCmdRelate, bad...); err == nil || o != nil {
			t.Errorf("relate %v: %v, ran with %+v", bad, err, o)
		}
	}
}

// Rule: create, update and delete take the fields the flags set (the
// member repositories as given, looked up only when it runs); create
// without --name, or with a --home-channel that is no UUID, is exit 2
// before any relay is asked.
func TestProjectIdentityWritesParseIntoOptions(t *testing.T) {
	t.Parallel()
	o, _, err := parse(project.NewCmdCreate, "my-project", "--name", "Mine", "--home-channel", chanA,
		"--add-repo", "30617:"+owner+":r", "--force-unresolved", "--yes")
	if err != nil || o.Arg != "my-project" || o.Fields.Name == nil || *o.Fields.Name != "Mine" || o.Fields.Description != nil ||
		o.Fields.Home == nil || *o.Fields.Home != chanA || !slices.Equal(o.AddRepos, []string{"30617:" + owner + ":r"}) || !o.ForceUnresolved || !o.Yes {
		t.Errorf("create: %v, %+v", err, o)
	}
	o, _, err = parse(project.NewCmdUpdate, coord, "--home-channel", "", "--remove-repo", "naddr1x", "--dry-run")
	if err != nil || o.Fields.Home == nil || *o.Fields.Home != "" || o.Fields.Name != nil || !slices.Equal(o.RemoveRepos, []string{"naddr1x"}) || !o.DryRun || o.Yes {
		t.Errorf("update: %v, %+v", err, o)
	}
	o, _, err = parse(project.NewCmdDelete, "my-project", "--dry-run")
	if err != nil || o.Arg != "my-project" || !o.DryRun {
		t.Errorf("delete: %v, %+v", err, o)
	}
	for _, bad := range [][]string{{"my-project"}, {"my-project", "--name", ""}, {"my-project", "--name", "x", "--home-channel", "nope"}} {
		if o, _, err := parse(project.NewCmdCreate, bad...); !usage(err) || o != nil {
			t.Errorf("create %v: %v, ran with %+v", bad, err, o)
		}
	}
	if o, _, err := parse(project.NewCmdDelete, "my-project", "--name", "x"); err == nil || o != nil {
		t.Errorf("delete --name: %v, ran with %+v", err, o)
	}
}

// Rule: project list takes --owner as given (a NIP-05 name is looked up
// only when it runs); --offline is exit 2, as it asks the relays.
func TestProjectListParsesOwner(t *testing.T) {
	t.Parallel()
	o, _, err := parse(project.NewCmdList, "--owner", "bob@example.com", "--relay", "wss://r.example")
	if err != nil || o.Owner != "bob@example.com" {
		t.Errorf("list: %v, %+v", err, o)
	}
	if o, _, err := parse(project.NewCmdList, "--relay", "wss://r.example", "--offline"); !usage(err) || o != nil {
		t.Errorf("list --offline: %v, ran with %+v", err, o)
	}
	if o, _, err := parse(project.NewCmdList); err == nil || o != nil {
		t.Errorf("list without a relay: %v, ran with %+v", err, o)
	}
}
