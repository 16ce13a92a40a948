package group_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// group list lists the groups whose 39000 the relay itself signed; a
// forged 39000 is counted, never listed.
func TestGroupListListsRelaySignedGroupsOnly(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"})
	forged := &nostr.Event{Kind: 39000, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"d", "fake-group"}, {"name", "Fake"}}}
	if err := forged.Sign(clitest.PcStrangerSK); err != nil {
		t.Fatal(err)
	}
	w.Relay.Inject(forged)
	out := clitest.DecodeOut[report.GroupList](t, w.As(clitest.PcStrangerSK, "group", "list", "--json"))
	if out.Schema != "roster.group.list/v1" || !out.Complete || len(out.Relays) != 1 {
		t.Fatalf("%+v", out)
	}
	r := out.Relays[0]
	if len(r.Groups) != 1 || r.Groups[0].ID != clitest.PcHome || r.Groups[0].Metadata.Name != "Home" || !r.Groups[0].Live || r.Rejected != 1 {
		t.Fatalf("groups %+v rejected %d", r.Groups, r.Rejected)
	}
	text := w.As(clitest.PcStrangerSK, "group", "list")
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, clitest.PcHome+"  Home (live)") || !strings.Contains(text.Out, "ignored 1 kind 39000") {
		t.Fatalf("exit %d\n%s", text.Code, text.Out)
	}
}

// group show --me: the latest 9000/9001 naming you decides; without one the
// relay-signed 39002 does; roles are the 39001's.
func TestGroupShowMeReadsMembershipAndRoles(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcStrangerSK)})
	w.MustPublish(clitest.PcOwnerSK, &nostr.Event{Kind: grouprelay.KindRemoveUser, CreatedAt: nostr.Now() + 1,
		Tags: nostr.Tags{{"h", clitest.PcHome}, {"p", clitest.PubOf(t, clitest.PcStrangerSK)}}})
	for _, c := range []struct {
		sk, basis string
		member    bool
		roles     string
	}{
		{clitest.PcOwnerSK, "members-list", true, "owner"}, // the creator: no 9000 names them
		{clitest.PcAdminSK, "put-user", true, "admin"},
		{clitest.PcStrangerSK, "remove-user", false, ""},
		{clitest.SwViewerSK, "none", false, ""},
	} {
		r := w.As(c.sk, "group", "show", clitest.PcHome, "--me", "--json")
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d %s %s", r.Code, r.Out, r.Err)
		}
		out := clitest.DecodeOut[report.GroupMe](t, r)
		m := out.Relays[0].Membership
		if out.Schema != "roster.group.me/v1" || out.You.Pubkey != clitest.PubOf(t, c.sk) || m == nil || m.Member != c.member || m.Basis != c.basis ||
			strings.Join(m.Roles, ",") != c.roles {
			t.Errorf("%s: %+v", c.basis, m)
		}
	}
	text := w.As(clitest.PcAdminSK, "group", "show", clitest.PcHome, "--me")
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, "  member  (latest kind 9000 put-user") || !strings.Contains(text.Out, "roles    admin") {
		t.Fatalf("exit %d\n%s", text.Code, text.Out)
	}
}
