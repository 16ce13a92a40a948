package group_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/groups"
)

// Rule (nip-29.md "Detecting migrations and forks"): when the group's relay
// is unreachable, the client MUST look at the kind 10009 of the group's
// admins, whose pubkeys it cached when it last read the group, and say where
// those lists now point, with the commands that read and rejoin it there.
func TestGroupRelayDownLooksForMovesThroughCachedAdminsLists(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	lists := devrelay.StartN(t, 1, devrelay.Options{})[0]
	const moved = "ws://moved.example"
	home := t.TempDir()
	run := func(args ...string) clitest.Result {
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcStrangerSK, "ROSTER_HOME": home}
		return clitest.Invocation{Env: env}.Roster(t, append(args, "--relay", lists.URL(), "--timeout", "5s")...)
	}
	ref := w.Relay.URL() + "'" + clitest.PcHome
	if r := run("group", "show", ref, "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("first read: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	// The admin's list now names the group on another relay.
	adminList := &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"group", clitest.PcHome, moved}, {"group", "unrelated", moved}}}
	if err := adminList.Sign(clitest.PcAdminSK); err != nil {
		t.Fatal(err)
	}
	if err := lists.Publish(adminList); err != nil {
		t.Fatal(err)
	}
	w.Relay.Stop()

	r := run("group", "show", ref, "--json")
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitIncomplete || e.Code != "incomplete" || !strings.Contains(e.Message, "may have moved or been forked") ||
		!strings.Contains(e.Message, moved) || !strings.Contains(e.Message, "(admin)") {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	ms, _ := e.Details["moves"].(map[string]any)
	found, _ := ms["found"].([]any)
	if len(found) != 1 || found[0].(map[string]any)["relay"] != moved || len(ms["admins"].([]any)) != 2 {
		t.Fatalf("moves %+v", ms)
	}
	if !strings.Contains(e.Commands[0], "roster group show '"+moved+"'\\''"+clitest.PcHome+"'") || !strings.Contains(e.Commands[1], "group join") || !strings.Contains(e.Commands[1], "--from "+w.Relay.URL()) {
		t.Fatalf("commands %q", e.Commands)
	}
	text := run("group", "members", ref)
	if text.Code != cmdutil.ExitIncomplete || !strings.Contains(text.Err, "may have moved or been forked: groups lists name it on "+moved) {
		t.Fatalf("exit %d\n%s", text.Code, text.Err)
	}

	// A join to the unreachable relay sends nothing and points there too.
	r = run("group", "join", ref, "--json")
	if e := clitest.ErrorBody(t, r); r.Code != cmdutil.ExitIncomplete || !strings.Contains(e.Message, "may have moved or been forked") {
		t.Fatalf("join: exit %d %+v", r.Code, e)
	}

	// With --me my own list is read too: a fork I listed is found, after
	// the move the admins agree on.
	mine := &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"group", clitest.PcHome, "ws://fork.example"}}}
	if err := mine.Sign(clitest.PcStrangerSK); err != nil {
		t.Fatal(err)
	}
	if err := lists.Publish(mine); err != nil {
		t.Fatal(err)
	}
	r = run("group", "show", ref, "--me", "--json")
	e = clitest.ErrorBody(t, r)
	found, _ = e.Details["moves"].(map[string]any)["found"].([]any)
	if r.Code != cmdutil.ExitIncomplete || len(found) != 2 || found[0].(map[string]any)["relay"] != moved || found[1].(map[string]any)["relay"] != "ws://fork.example" {
		t.Fatalf("exit %d %+v", r.Code, e.Details["moves"])
	}

	// Without a cached read there are no admins to ask: it says so.
	fresh := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, "group", "show", ref, "--relay", lists.URL(), "--timeout", "5s", "--json")
	if e := clitest.ErrorBody(t, fresh); fresh.Code != cmdutil.ExitIncomplete || !strings.Contains(e.Message, "the admins are not cached") {
		t.Fatalf("exit %d %+v", fresh.Code, e)
	}
}

// Following a moved group: join --save --from <old relay> replaces the
// 10009 entry for the old relay with the new one, keeping the rest.
func TestGroupJoinFromMovesTheListEntry(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	const old = "wss://old.example"
	prev := &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: nostr.Now() - 10, Tags: nostr.Tags{{"group", clitest.PcHome, old}, {"group", "other", old, "Other"}}}
	w.MustPublish(clitest.PcStrangerSK, prev)
	if r := w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--from", old); r.Code != cmdutil.ExitUsage {
		t.Fatalf("--from without --save: exit %d", r.Code)
	}
	out := clitest.DecodeOut[report.GroupRequest](t, w.As(clitest.PcStrangerSK, "group", "join", w.Relay.URL()+"'"+clitest.PcHome, "--save", "--from", old, "--json"))
	if out.Outcome != groups.OutcomeJoined || out.List.Status != "saved" {
		t.Fatalf("%+v", out)
	}
	got := w.StoredKind(groups.KindGroupsList, clitest.PubOf(t, clitest.PcStrangerSK))
	want := nostr.Tags{{"group", "other", old, "Other"}, {"group", clitest.PcHome, w.Relay.URL()}}
	if len(got) != 1 || len(got[0].Tags) != 2 || !slices.Equal(got[0].Tags[0], want[0]) || !slices.Equal(got[0].Tags[1], want[1]) {
		t.Fatalf("stored %v", got)
	}
}

// group show --offline answers from the cache an online read filled,
// marked status cache and incomplete; nothing cached is offline-miss.
func TestGroupShowOfflineFromTheCache(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"})
	home := t.TempDir()
	run := func(args ...string) clitest.Result {
		return clitest.Invocation{Env: map[string]string{"ROSTER_HOME": home}}.Roster(t, append(args, "--relay", w.Relay.URL(), "--timeout", "5s")...)
	}
	if r := run("group", "show", clitest.PcHome, "--offline", "--json"); r.Code != cmdutil.ExitIncomplete || clitest.ErrorBody(t, r).Code != "offline-miss" {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
	if r := run("group", "show", clitest.PcHome); r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d %s", r.Code, r.Err)
	}
	w.Relay.Stop()
	r := run("group", "show", clitest.PcHome, "--offline", "--json")
	out := clitest.DecodeOut[report.Group](t, r)
	if r.Code != cmdutil.ExitOK || out.Complete || len(out.Relays) != 1 || out.Relays[0].Status != "cache" || !out.Relays[0].Live ||
		out.Relays[0].Group.Metadata.Name != "Home" || out.Relays[0].Group.RolesOf(clitest.PubOf(t, clitest.PcOwnerSK)) == nil {
		t.Fatalf("exit %d %+v", r.Code, out)
	}
}
