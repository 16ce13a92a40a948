package group_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/group"
	"github.com/roster-cli/roster/workspace/groups"
	"github.com/spf13/cobra"
)

// parse runs the command build makes, with the flags the group noun gives
// every command of it, on args, catching the options its runF receives:
// flag parsing alone, no relay, no signer.
func parse[O any](build func(*cmdutil.Factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, error) {
	f := &cmdutil.Factory{Io: &cmdutil.IoStreams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}}
	var got *O
	cmd := build(f, func(_ context.Context, o *O) error { got = o; return nil })
	cmdutil.AddFlags(cmd, &f.Opts, cmdutil.OutputFlags|cmdutil.NetworkFlags|cmdutil.HomeFlag)
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	return got, cmd.ExecuteContext(context.Background())
}

const gid = "99999999-9999-4999-8999-999999999999"

func usage(err error) bool { return err != nil && cmdutil.AsExitError(err).Code == cmdutil.ExitUsage }

// Rule (flags are parsed without relays): the reads take the group
// reference (a relay'id names its relay) and their flags into options;
// no relay to ask, --me with --watch or --offline, and --offline for
// the reads the cache does not keep are exit 2 before anything is read.
func TestGroupReadsParseIntoOptions(t *testing.T) {
	t.Parallel()
	s, err := parse(group.NewCmdShow, "relay.example'"+gid, "--me")
	if err != nil || s.Ref.ID != gid || !slices.Equal(s.Relays, []string{"wss://relay.example"}) || !s.Me || s.Watch {
		t.Errorf("show: %v, %+v", err, s)
	}
	if s, err := parse(group.NewCmdShow, gid, "--relay", "wss://r.example", "--watch"); err != nil || !s.Watch || s.Ref.Relay != "" || len(s.Relays) != 1 {
		t.Errorf("show --watch: %v, %+v", err, s)
	}
	for _, bad := range [][]string{{gid}, {gid, "--relay", "wss://r.example", "--me", "--watch"}, {gid, "--relay", "wss://r.example", "--me", "--offline"}} {
		if s, err := parse(group.NewCmdShow, bad...); !usage(err) || s != nil {
			t.Errorf("show %v: %v, ran with %+v", bad, err, s)
		}
	}
	if l, err := parse(group.NewCmdList, "--relay", "wss://r.example", "--mine"); err != nil || !l.Mine || len(l.Relays) != 1 {
		t.Errorf("list --mine: %v, %+v", err, l)
	}
	for _, bad := range [][]string{nil, {"--relay", "wss://r.example", "--offline"}} {
		if l, err := parse(group.NewCmdList, bad...); !usage(err) || l != nil {
			t.Errorf("list %v: %v, ran with %+v", bad, err, l)
		}
	}
	if m, err := parse(group.NewCmdMembers, "relay.example'"+gid); err != nil || m.Ref.ID != gid || len(m.Relays) != 1 {
		t.Errorf("members: %v, %+v", err, m)
	}
	if m, err := parse(group.NewCmdMembers, "relay.example'"+gid, "--offline"); !usage(err) || m != nil {
		t.Errorf("members --offline: %v, ran with %+v", err, m)
	}
}

// Rule: join and leave take their flags as given; --from without --save
// is exit 2, as only the groups list it changes is saved.
func TestGroupJoinAndLeaveParseIntoOptions(t *testing.T) {
	t.Parallel()
	j, err := parse(group.NewCmdJoin, "new.example'"+gid, "--code", "c0de", "--reason", "hi", "--save", "--from", "wss://old.example")
	if err != nil || j.Arg != "new.example'"+gid || j.Leave || j.Code != "c0de" || j.Reason != "hi" || !j.Save || j.From != "wss://old.example" {
		t.Errorf("join: %v, %+v", err, j)
	}
	if j, err := parse(group.NewCmdJoin, gid, "--from", "wss://old.example"); !usage(err) || j != nil {
		t.Errorf("join --from without --save: %v, ran with %+v", err, j)
	}
	l, err := parse(group.NewCmdLeave, gid, "--dry-run", "--save")
	if err != nil || !l.Leave || !l.DryRun || !l.Save || l.Code != "" {
		t.Errorf("leave: %v, %+v", err, l)
	}
	if l, err := parse(group.NewCmdLeave, gid, "--code", "x"); err == nil || l != nil {
		t.Errorf("leave --code: %v, ran with %+v", err, l)
	}
}

// Rule: each moderation command asks for its own action with the flags it
// was given; create and edit take only the metadata flags that were set
// (--closed=false removes a flag), edit without one is exit 2, invite
// without --code sends a random one, delete-event takes an event id only.
func TestGroupModerationParsesIntoItsAction(t *testing.T) {
	t.Parallel()
	type build = func(*cmdutil.Factory, func(context.Context, *group.ModerateOptions) error) *cobra.Command
	for _, tc := range []struct {
		build  build
		args   []string
		action groups.Action
		check  func(*group.ModerateOptions) bool
	}{
		{group.NewCmdCreate, []string{"relay.example'pizza", "--name", "Pizza", "--closed", "--dry-run"}, groups.ActCreate, func(o *group.ModerateOptions) bool {
			e := o.Input.Edit
			return e.Name != nil && *e.Name == "Pizza" && e.Closed != nil && *e.Closed && e.About == nil && e.Private == nil && o.DryRun
		}},
		{group.NewCmdEdit, []string{gid, "--closed=false", "--parent", ""}, groups.ActEdit, func(o *group.ModerateOptions) bool {
			e := o.Input.Edit
			return e.Closed != nil && !*e.Closed && e.Parent != nil && *e.Parent == "" && e.Name == nil
		}},
		{group.NewCmdAdd, []string{gid, "bob@example.com", "--role", "admin", "--role", "moderator"}, groups.ActPutUser, func(o *group.ModerateOptions) bool {
			return o.Person == "bob@example.com" && slices.Equal(o.Input.Roles, []string{"admin", "moderator"})
		}},
		{group.NewCmdRemove, []string{gid, "npub1x", "--reason", "spam"}, groups.ActRemoveUser, func(o *group.ModerateOptions) bool {
			return o.Person == "npub1x" && o.Reason == "spam"
		}},
		{group.NewCmdInvite, []string{gid, "--code", "welcome"}, groups.ActInvite, func(o *group.ModerateOptions) bool { return o.Input.Code == "welcome" }},
		{group.NewCmdInvite, []string{gid}, groups.ActInvite, func(o *group.ModerateOptions) bool { return len(o.Input.Code) == 16 }},
		{group.NewCmdDeleteEvent, []string{gid, strings.Repeat("ab", 32)}, groups.ActDeleteEvent, func(o *group.ModerateOptions) bool {
			return o.Input.EventID == strings.Repeat("ab", 32)
		}},
		{group.NewCmdDelete, []string{gid, "--yes"}, groups.ActDeleteGroup, func(o *group.ModerateOptions) bool { return o.Yes && !o.DryRun }},
	} {
		o, err := parse(tc.build, tc.args...)
		if err != nil || o.Input.Action != tc.action || o.Arg != tc.args[0] || !tc.check(o) {
			t.Errorf("%s %v: %v, %+v", tc.action, tc.args, err, o)
		}
	}
	if o, err := parse(group.NewCmdEdit, gid); !usage(err) || o != nil {
		t.Errorf("edit without a flag: %v, ran with %+v", err, o)
	}
	if o, err := parse(group.NewCmdDeleteEvent, gid, "not-an-event"); !usage(err) || o != nil {
		t.Errorf("delete-event not-an-event: %v, ran with %+v", err, o)
	}
	if o, err := parse(group.NewCmdRemove, gid, "npub1x", "--role", "admin"); err == nil || o != nil {
		t.Errorf("remove --role: %v, ran with %+v", err, o)
	}
}
