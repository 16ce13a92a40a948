package main

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// group list lists the groups whose 39000 the relay itself signed; a
// forged 39000 is counted, never listed.
func TestGroupListListsRelaySignedGroupsOnly(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"})
	forged := &nostr.Event{Kind: 39000, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"d", "fake-group"}, {"name", "Fake"}}}
	if err := forged.Sign(pcStrangerSK); err != nil {
		t.Fatal(err)
	}
	w.relay.Inject(forged)
	out := decodeOut[report.GroupList](t, w.as(pcStrangerSK, "group", "list", "--json"))
	if out.Schema != "roster.group.list/v1" || !out.Complete || len(out.Relays) != 1 {
		t.Fatalf("%+v", out)
	}
	r := out.Relays[0]
	if len(r.Groups) != 1 || r.Groups[0].ID != pcHome || r.Groups[0].Metadata.Name != "Home" || !r.Groups[0].Live || r.Rejected != 1 {
		t.Fatalf("groups %+v rejected %d", r.Groups, r.Rejected)
	}
	text := w.as(pcStrangerSK, "group", "list")
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, pcHome+"  Home (live)") || !strings.Contains(text.Out, "ignored 1 kind 39000") {
		t.Fatalf("exit %d\n%s", text.Code, text.Out)
	}
}

// group show --me: the latest 9000/9001 naming you decides; without one the
// relay-signed 39002 does; roles are the 39001's.
func TestGroupShowMeReadsMembershipAndRoles(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcStrangerSK)})
	w.mustPublish(pcOwnerSK, &nostr.Event{Kind: grouprelay.KindRemoveUser, CreatedAt: nostr.Now() + 1,
		Tags: nostr.Tags{{"h", pcHome}, {"p", pubOf(t, pcStrangerSK)}}})
	for _, c := range []struct {
		sk, basis string
		member    bool
		roles     string
	}{
		{pcOwnerSK, "members-list", true, "owner"}, // the creator: no 9000 names them
		{pcAdminSK, "put-user", true, "admin"},
		{pcStrangerSK, "remove-user", false, ""},
		{swViewerSK, "none", false, ""},
	} {
		r := w.as(c.sk, "group", "show", pcHome, "--me", "--json")
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d %s %s", r.Code, r.Out, r.Err)
		}
		out := decodeOut[report.GroupMe](t, r)
		m := out.Relays[0].Membership
		if out.Schema != "roster.group.me/v1" || out.You.Pubkey != pubOf(t, c.sk) || m == nil || m.Member != c.member || m.Basis != c.basis ||
			strings.Join(m.Roles, ",") != c.roles {
			t.Errorf("%s: %+v", c.basis, m)
		}
	}
	text := w.as(pcAdminSK, "group", "show", pcHome, "--me")
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, "  member  (latest kind 9000 put-user") || !strings.Contains(text.Out, "roles    admin") {
		t.Fatalf("exit %d\n%s", text.Code, text.Out)
	}
}
