package change_test

import (
	"context"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo/change"
	"github.com/roster-cli/roster/preflight"
	"github.com/spf13/cobra"
)

// parse runs the command build makes with args, catching the options its
// runF receives: flag parsing alone, no relay, no signer, no checkout.
func parse[O any](t *testing.T, build func(*cmdutil.Factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, *cmdutil.Factory, error) {
	t.Helper()
	f := &cmdutil.Factory{Io: &cmdutil.IoStreams{In: nil, Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
	var got *O
	cmd := build(f, func(_ context.Context, o *O) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	err := cmd.ExecuteContext(context.Background())
	return got, f, err
}

// Rule (flags are parsed without relays): repo edit's flags land in its
// options as given (a NIP-05 name is looked up only when the change runs),
// the shared ones in the Factory's.
func TestEditFlagsParseIntoOptionsBeforeAnyLookup(t *testing.T) {
	t.Parallel()
	o, f, err := parse(t, change.NewCmdEdit, "--add-maintainer", "bob@example.com", "--no-lead-maintainer", "--force",
		"--rewind", "refs/heads/old", "--rewind", "refs/tags/v1", "--dry-run",
		"--json", "--repo", "origin", "--relay", "wss://r.example", "--timeout", "3s")
	if err != nil || o == nil {
		t.Fatalf("parse: %v (options %v)", err, o)
	}
	if o.AddMaintainer != "bob@example.com" || !o.NoLead || !o.Force || !o.DryRun || o.Metadata ||
		!slices.Equal(o.Rewind, []string{"refs/heads/old", "refs/tags/v1"}) || o.Factory != f {
		t.Errorf("options %+v", *o)
	}
	if !f.Opts.JSON || f.Opts.Repo != "origin" || !slices.Equal(f.Opts.Relays, []string{"wss://r.example"}) || f.Opts.Timeout != 3*time.Second {
		t.Errorf("shared flags %+v", f.Opts)
	}
	if o, _, err := parse(t, change.NewCmdEdit, "--name", "roster", "--description", "maintainer graphs"); err != nil || !o.Metadata {
		t.Errorf("a metadata edit: %v, %+v", err, o)
	}
	if o, _, err := parse(t, change.NewCmdEdit, "--remove-moderator", "npub1x", "--lead-maintainer", "npub1y"); err != nil ||
		o.RemoveModerator != "npub1x" || o.LeadMaintainer != "npub1y" {
		t.Errorf("moderator flags: %v, %+v", err, o)
	}
}

// Rule: accept's flags choose its intent: --moderator the moderator
// acknowledgement, --force and --rewind the state-only override.
func TestAcceptFlagsChooseItsIntent(t *testing.T) {
	t.Parallel()
	o, _, err := parse(t, change.NewCmdAccept, "--force", "--rewind", "refs/heads/main", "--dry-run")
	if err != nil {
		t.Fatal(err)
	}
	in, err := o.Intent()
	if err != nil || in.Action != preflight.ActAccept || !in.Force || !o.DryRun || in.Rewind != "refs/heads/main" {
		t.Errorf("accept --force --rewind: %v, %+v", err, in)
	}
	o, _, _ = parse(t, change.NewCmdAccept, "--moderator")
	if in, err := o.Intent(); err != nil || in.Action != preflight.ActAcceptModerator || o.DryRun {
		t.Errorf("accept --moderator: %v, %+v", err, in)
	}
}

// Rule: leave and follow-lead take --dry-run and the repository flags, and
// nothing that is not theirs: an unknown flag never reaches the change.
func TestLeaveAndFollowLeadParseOnlyTheirFlags(t *testing.T) {
	t.Parallel()
	l, f, err := parse(t, change.NewCmdLeave, "--dry-run", "--home", "/h")
	if err != nil || !l.DryRun || l.Intent().Action != preflight.ActLeave || f.Opts.Home != "/h" {
		t.Errorf("leave: %v, %+v", err, l)
	}
	fl, _, err := parse(t, change.NewCmdFollowLead, "--deadline", "1m")
	if err != nil || fl.DryRun || fl.Intent().Action != preflight.ActFollowLead {
		t.Errorf("follow-lead: %v, %+v", err, fl)
	}
	if l, _, err := parse(t, change.NewCmdLeave, "--strict"); err == nil || l != nil {
		t.Errorf("leave --strict: %v, ran with %+v", err, l)
	}
}

// Rule: repo init's flags land in its options as given (the directory
// name and origin's URL are defaults filled in only when it runs);
// --offline is refused before anything is read, as init publishes.
func TestInitFlagsParseIntoOptions(t *testing.T) {
	t.Parallel()
	o, f, err := parse(t, change.NewCmdInit, "--identifier", "my-repo", "--name", "My Project", "--description", "d",
		"--clone", "https://a.example/r.git", "--clone", "https://b.example/r.git", "--web", "https://w.example",
		"--set-origin", "--dry-run", "--relay", "wss://r.example")
	if err != nil || o.Identifier != "my-repo" || o.Name != "My Project" || o.Description != "d" ||
		!slices.Equal(o.Clone, []string{"https://a.example/r.git", "https://b.example/r.git"}) ||
		!slices.Equal(o.Web, []string{"https://w.example"}) || !o.SetOrigin || !o.DryRun || len(f.Opts.Relays) != 1 {
		t.Errorf("init: %v, %+v", err, o)
	}
	if o, _, err := parse(t, change.NewCmdInit); err != nil || o.DryRun || o.SetOrigin || o.Clone != nil {
		t.Errorf("init without flags: %v, %+v", err, o)
	}
	if o, _, err := parse(t, change.NewCmdInit, "--offline"); cmdutil.AsExitError(err).Code != cmdutil.ExitUsage || o != nil {
		t.Errorf("init --offline: %v, ran with %+v", err, o)
	}
}

// Rule: repo repair asks for the repair and takes --dry-run, no argument.
func TestRepairFlagsParseIntoOptions(t *testing.T) {
	t.Parallel()
	o, _, err := parse(t, change.NewCmdRepair, "--dry-run", "--verbose")
	if err != nil || !o.DryRun || o.Intent().Action != preflight.ActRepair {
		t.Errorf("repair: %v, %+v", err, o)
	}
	if o, _, err := parse(t, change.NewCmdRepair, "npub1x"); err == nil || o != nil {
		t.Errorf("repair npub1x: %v, ran with %+v", err, o)
	}
}
