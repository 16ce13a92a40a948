package group_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"

	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/root"
	"github.com/roster-cli/roster/workspace/groups"
)

// Rule (nip-29.md 9007, 9002 and "Subgroups"): create sends a create-group
// then an edit-metadata, verified by the relay-signed 39000; edit keeps
// every field it was not asked to change; a stranger's edit is refused by
// the relay with its reason and changes nothing; delete needs --yes off a
// terminal and leaves the relay's tombstone.
func TestGroupCreateEditAndDeleteAreVerifiedByTheRelaySigned39000(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	id := w.Relay.URL() + "'pizza"
	dry := w.Ok(clitest.PcOwnerSK, "group", "create", id, "--name", "Pizza", "--closed", "--dry-run")
	if !dry.DryRun || len(dry.Steps) != 2 || dry.Steps[0].Kind != 9007 || dry.Steps[1].Kind != 9002 || dry.Steps[0].Sent {
		t.Fatalf("dry run %+v", dry)
	}
	if w.RelayState("pizza").Metadata != nil {
		t.Fatal("a dry run created the group")
	}
	c := w.Ok(clitest.PcOwnerSK, "group", "create", id, "--name", "Pizza", "--closed")
	st := w.RelayState("pizza")
	if !st.Live() || st.Metadata.Name != "Pizza" || !st.Metadata.Closed || c.Metadata == nil || c.Metadata.Name != "Pizza" {
		t.Fatalf("after create: relay %+v, out %+v", st.Metadata, c)
	}
	if r := st.RolesOf(clitest.PubOf(t, clitest.PcOwnerSK)); len(r) != 1 || r[0] != "owner" {
		t.Fatalf("creator's roles %v", r)
	}
	for _, kind := range []int{grouprelay.KindCreateGroup, grouprelay.KindEditMetadata} {
		if got := w.Relay.Stored(nostr.Filter{Kinds: []int{kind}, Tags: nostr.TagMap{"h": {"pizza"}}}); len(got) != 1 {
			t.Fatalf("kind %d with the h tag stored %d times", kind, len(got))
		}
	}
	if r := w.As(clitest.PcOwnerSK, "group", "create", id, "--json"); r.Code != cmdutil.ExitRefused || clitest.ErrorBody(t, r).Code != "group-exists" {
		t.Fatalf("second create: exit %d %s", r.Code, r.Out)
	}

	e := w.Ok(clitest.PcOwnerSK, "group", "edit", id, "--about", "we love pizza", "--closed=false")
	st = w.RelayState("pizza")
	if st.Metadata.Name != "Pizza" || st.Metadata.About != "we love pizza" || st.Metadata.Closed || !strings.Contains(e.Verified, "39000") {
		t.Fatalf("after edit %+v (%s)", st.Metadata, e.Verified)
	}
	before := st.Sources
	msg := w.RefusedBy(clitest.PcStrangerSK, "group", "edit", id, "--name", "Mine")
	if !strings.Contains(msg, "edit-metadata (kind 9002) needs the role owner or admin") {
		t.Fatalf("the relay's reason is not shown: %s", msg)
	}
	if after := w.RelayState("pizza").Sources; after[0] != before[0] {
		t.Fatal("a refused edit changed the 39000")
	}
	text := w.As(clitest.PcStrangerSK, "group", "edit", id, "--name", "Mine")
	if !strings.Contains(text.Out, "your roles: none") || !strings.Contains(text.Out, "moderator: deletes events") || !strings.Contains(text.Err, "needs the role owner or admin") {
		t.Fatalf("a refusal's text:\n%s%s", text.Out, text.Err)
	}

	if r := w.As(clitest.PcOwnerSK, "group", "delete", id, "--json"); r.Code != cmdutil.ExitUsage || clitest.ErrorBody(t, r).Code != "confirmation-required" {
		t.Fatalf("delete without --yes off a terminal: exit %d %s", r.Code, r.Out)
	}
	if !w.RelayState("pizza").Live() {
		t.Fatal("an unconfirmed delete deleted the group")
	}
	w.RefusedBy(clitest.PcStrangerSK, "group", "delete", id, "--yes")
	d := w.Ok(clitest.PcOwnerSK, "group", "delete", id, "--yes")
	if st := w.RelayState("pizza"); st.Live() || !st.Metadata.Deleted || d.Metadata == nil || !d.Metadata.Deleted {
		t.Fatalf("after delete %+v", st.Metadata)
	}
}

// Rule (nip-29.md "Relays MUST reject any kind:9002 carrying ["parent", "X"]
// unless the event author is also an admin of X"): create --parent by
// someone who does not administer the parent is refused before signing.
func TestGroupCreateUnderAParentYouDoNotAdministerSendsNothing(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Ok(clitest.PcOwnerSK, "group", "create", "tech", "--name", "Tech") // the one --relay hosts it
	r := w.As(clitest.PcStrangerSK, "group", "create", w.Relay.URL()+"'nostr", "--parent", "tech", "--json")
	if r.Code != cmdutil.ExitRefused || clitest.ErrorBody(t, r).Code != "parent-not-admin" {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
	if got := w.Relay.Stored(nostr.Filter{Kinds: []int{grouprelay.KindCreateGroup}, Authors: []string{clitest.PubOf(t, clitest.PcStrangerSK)}}); len(got) != 0 {
		t.Fatal("a refused create sent its 9007")
	}
	sub := w.Ok(clitest.PcOwnerSK, "group", "create", w.Relay.URL()+"'nostr", "--parent", "tech")
	if sub.Metadata == nil || sub.Metadata.Parent != "tech" || !slicesEqual(w.RelayState("tech").Metadata.Children, []string{"nostr"}) {
		t.Fatalf("subgroup %+v", sub.Metadata)
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// Rule (nip-29.md 9000/9001 and "Checking your own membership"): add and
// remove are verified by the relay's latest 9000/9001 naming the person; a
// role change is a 9000; a moderator's add is refused by the relay's role
// policy with its reason, and nothing is stored.
func TestGroupAddRoleChangeAndRemoveAreVerifiedByTheRelaysRecord(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	mod := w.NpubOf(clitest.PcAdminSK)
	add := w.Ok(clitest.PcOwnerSK, "group", "add", clitest.PcHome, mod, "--role", "moderator")
	if add.TargetAfter == nil || !add.TargetAfter.Member || len(add.SignerRoles) != 1 || add.SignerRoles[0] != "owner" || len(add.RelayRoles) != 3 {
		t.Fatalf("add %+v", add)
	}
	st := w.RelayState(clitest.PcHome)
	if r := st.RolesOf(clitest.PubOf(t, clitest.PcAdminSK)); len(r) != 1 || r[0] != "moderator" {
		t.Fatalf("the relay's 39001 gives %v", r)
	}
	puts := w.Relay.Stored(nostr.Filter{Kinds: []int{grouprelay.KindPutUser}, Tags: nostr.TagMap{"p": {clitest.PubOf(t, clitest.PcAdminSK)}}})
	if len(puts) != 1 || puts[0].Tags.GetFirst([]string{"p", clitest.PubOf(t, clitest.PcAdminSK), "moderator"}) == nil || puts[0].Tags.GetFirst([]string{"h", clitest.PcHome}) == nil {
		t.Fatalf("stored 9000s %v", puts)
	}
	msg := w.RefusedBy(clitest.PcAdminSK, "group", "add", clitest.PcHome, w.NpubOf(clitest.PcStrangerSK))
	if !strings.Contains(msg, "put-user (kind 9000) needs the role owner or admin") || !strings.Contains(msg, "(moderator)") {
		t.Fatalf("the relay's reason: %s", msg)
	}
	if got := w.Relay.Stored(nostr.Filter{Kinds: []int{grouprelay.KindPutUser}, Tags: nostr.TagMap{"p": {clitest.PubOf(t, clitest.PcStrangerSK)}}}); len(got) != 0 {
		t.Fatal("the refused 9000 was stored")
	}
	msg = w.RefusedBy(clitest.PcAdminSK, "group", "remove", clitest.PcHome, w.NpubOf(clitest.PcOwnerSK))
	if !strings.Contains(msg, "remove-user (kind 9001) needs the role owner or admin") {
		t.Fatalf("the relay's reason for a moderator's remove: %s", msg)
	}
	if r := w.RelayState(clitest.PcHome).RolesOf(clitest.PubOf(t, clitest.PcOwnerSK)); len(r) != 1 || r[0] != "owner" {
		t.Fatalf("a refused remove changed the owner's roles: %v", r)
	}
	change := w.Ok(clitest.PcOwnerSK, "group", "add", clitest.PcHome, mod, "--role", "admin")
	if !strings.HasPrefix(change.Preview[0], "changes "+mod+"'s roles from role moderator to role admin") {
		t.Fatalf("preview %v", change.Preview)
	}
	if r := w.RelayState(clitest.PcHome).RolesOf(clitest.PubOf(t, clitest.PcAdminSK)); len(r) != 1 || r[0] != "admin" {
		t.Fatalf("after the role change the 39001 gives %v", r)
	}
	same := w.Ok(clitest.PcOwnerSK, "group", "add", clitest.PcHome, mod, "--role", "admin")
	if !same.NothingToChange || len(same.Steps) != 0 {
		t.Fatalf("the same roles again %+v", same)
	}
	// An admin may not remove an owner (the relay's policy).
	if msg := w.RefusedBy(clitest.PcAdminSK, "group", "remove", clitest.PcHome, w.NpubOf(clitest.PcOwnerSK)); !strings.Contains(msg, "only an owner") {
		t.Fatalf("an admin's removal of the owner: %s", msg)
	}
	rm := w.Ok(clitest.PcOwnerSK, "group", "remove", clitest.PcHome, mod)
	if rm.TargetAfter == nil || rm.TargetAfter.Member || rm.TargetAfter.Basis != "remove-user" {
		t.Fatalf("remove %+v", rm)
	}
	for _, p := range w.RelayState(clitest.PcHome).Members {
		if p == clitest.PubOf(t, clitest.PcAdminSK) {
			t.Fatal("the relay's 39002 still lists the removed member")
		}
	}
}

// Rule (nip-29.md 9009 and "Group referencing"): group invite prints the
// naddr...?invite=<code> and a join command that another person, in their
// own home with none of the inviter's settings, runs to join the closed
// group; the same code used twice is refused by the relay; the command
// carries no --home, key or --relay.
func TestGroupInviteCodeJoinsAClosedGroupFromAnotherHomeOnce(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"closed"})
	// Closed: without a code the relay only queues the join, with a wrong
	// one it refuses it.
	if r := w.As(clitest.PcAdminSK, "group", "join", clitest.PcHome, "--json"); r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, `"outcome": "pending"`) {
		t.Fatalf("a join without a code: exit %d %s", r.Code, r.Out)
	}
	if msg := w.RefusedBy(clitest.PcAdminSK, "group", "join", clitest.PcHome, "--code", "guess"); !strings.Contains(msg, "invite code is not valid") {
		t.Fatalf("a wrong code: %s", msg)
	}
	inv := w.Ok(clitest.PcOwnerSK, "group", "invite", clitest.PcHome)
	ref, err := groups.ParseRef(inv.Share)
	if err != nil || ref.Invite == "" || ref.Relay != w.Relay.URL() || ref.ID != clitest.PcHome {
		t.Fatalf("share %q: %+v %v", inv.Share, ref, err)
	}
	for _, bad := range []string{"--home", "--relay", "ROSTER_", "nsec", "--timeout"} {
		if strings.Contains(inv.JoinCommand, bad) {
			t.Fatalf("the join command for another person carries %s: %s", bad, inv.JoinCommand)
		}
	}
	args := clitest.ShellWords(t, inv.JoinCommand)
	if len(args) < 3 || args[0] != "roster" || args[1] != "group" || args[2] != "join" {
		t.Fatalf("join command %q", inv.JoinCommand)
	}
	join := func(sk string) clitest.Result {
		return clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": t.TempDir()}}.Roster(t, append(args[1:], "--json")...)
	}
	r := join(clitest.PcStrangerSK)
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, `"outcome": "joined"`) {
		t.Fatalf("the invitee's join: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	if m := groups.MembershipOf(clitest.PcHome, clitest.PubOf(t, clitest.PcStrangerSK), w.RelayState(clitest.PcHome), w.Relay.Stored(nostr.Filter{Kinds: []int{9000, 9001}})); !m.Member {
		t.Fatalf("the relay does not make the invitee a member: %+v", m)
	}
	r = join(clitest.PcAdminSK)
	if e := clitest.ErrorBody(t, r); r.Code != cmdutil.ExitRefused || !strings.Contains(e.Message, "already used") {
		t.Fatalf("the code used twice: exit %d %+v", r.Code, e)
	}
	text := w.As(clitest.PcOwnerSK, "group", "invite", clitest.PcHome, "--code", "second")
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, "share: naddr1") || !strings.Contains(text.Out, "?invite=second") || !strings.Contains(text.Out, "they run: roster group join 'naddr1") {
		t.Fatalf("invite text:\n%s%s", text.Out, text.Err)
	}
	// A plain member may not mint codes.
	w.RefusedBy(clitest.PcStrangerSK, "group", "invite", clitest.PcHome)
}

// Rule (nip-29.md 9005): delete-event previews the event and is verified
// by the relay no longer serving it; a plain member's is refused.
func TestGroupDeleteEventIsVerifiedByTheEventsAbsence(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "moderator"})
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcStrangerSK)})
	spam := &nostr.Event{Kind: 9, CreatedAt: nostr.Now(), Content: "buy now", Tags: nostr.Tags{{"h", clitest.PcHome}}}
	w.MustPublish(clitest.PcStrangerSK, spam)
	nevent, _ := nip19.EncodeEvent(spam.ID, nil, spam.PubKey)
	w.RefusedBy(clitest.PcStrangerSK, "group", "delete-event", clitest.PcHome, nevent)
	dry := w.Ok(clitest.PcAdminSK, "group", "delete-event", clitest.PcHome, nevent, "--dry-run")
	if !strings.Contains(dry.Preview[0], `"buy now"`) || len(w.Relay.Stored(nostr.Filter{IDs: []string{spam.ID}})) != 1 {
		t.Fatalf("dry run %+v", dry)
	}
	d := w.Ok(clitest.PcAdminSK, "group", "delete-event", clitest.PcHome, spam.ID, "--reason", "spam")
	if len(w.Relay.Stored(nostr.Filter{IDs: []string{spam.ID}})) != 0 || !strings.Contains(d.Verified, "no longer serves") {
		t.Fatalf("after delete-event %+v", d)
	}
	if r := w.As(clitest.PcAdminSK, "group", "delete-event", clitest.PcHome, spam.ID, "--json"); r.Code != cmdutil.ExitRefused || clitest.ErrorBody(t, r).Code != "event-not-found" {
		t.Fatalf("deleting it again: exit %d %s", r.Code, r.Out)
	}
}

// group delete on a terminal asks for the group id: a wrong answer sends
// nothing, the id deletes.
func TestGroupDeleteOnATerminalAsksForTheGroupID(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	run := func(answer string) (int, string) {
		var out, errb bytes.Buffer
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}
		s := &cmdutil.IoStreams{In: strings.NewReader(answer), Out: &out, Err: &errb, InTTY: true, Now: time.Now,
			Getenv: func(k string) string { return env[k] }}
		code := root.RunContext(context.Background(), clitest.Tree(), []string{"group", "delete", clitest.PcHome, "--relay", w.Relay.URL()}, s, cmdutil.Seams{})
		return code, out.String() + errb.String()
	}
	if code, text := run("no\n"); code != cmdutil.ExitUsage || !strings.Contains(text, "type the group id") || !strings.Contains(text, "deletes group "+clitest.PcHome) {
		t.Fatalf("a wrong answer: exit %d\n%s", code, text)
	}
	if !w.RelayState(clitest.PcHome).Live() {
		t.Fatal("a wrong answer deleted the group")
	}
	if code, text := run(clitest.PcHome + "\n"); code != cmdutil.ExitOK || w.RelayState(clitest.PcHome).Live() {
		t.Fatalf("the id typed: exit %d\n%s", code, text)
	}
}
