package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

func TestGroupShowReadsRelaySignedRolesAndIgnoresForgeries(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"}, nostr.Tag{"about", "home channel"})
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	// A stranger signs a 39001 naming himself admin and gets it stored.
	forged := &nostr.Event{Kind: 39001, CreatedAt: nostr.Now() + 60, Tags: nostr.Tags{{"d", clitest.PcHome}, {"p", clitest.PubOf(t, clitest.PcStrangerSK), "admin"}}}
	if err := forged.Sign(clitest.PcStrangerSK); err != nil {
		t.Fatal(err)
	}
	w.Relay.Inject(forged)

	r := w.As(clitest.PcStrangerSK, "group", "show", clitest.PcHome, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.Group](t, r)
	if out.Schema != "roster.group/v1" || len(out.Relays) != 1 || !out.Complete {
		t.Fatalf("%+v", out)
	}
	g := out.Relays[0]
	if !g.Found || !g.Live || g.Self != w.Relay.Self() || g.Group.Metadata.Name != "Home" {
		t.Fatalf("relay view %+v", g)
	}
	if roles := g.Group.RolesOf(clitest.PubOf(t, clitest.PcAdminSK)); len(roles) != 1 || roles[0] != "admin" {
		t.Fatalf("admin roles %v", roles)
	}
	if g.Group.RolesOf(clitest.PubOf(t, clitest.PcStrangerSK)) != nil || len(g.Group.Rejected) != 1 || g.Group.Rejected[0].EventID != forged.ID {
		t.Fatalf("forged admin list used: %+v", g.Group)
	}
	// The stranger is still refused a project change through that channel.
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	if r := w.As(clitest.PcStrangerSK, "project", "relate", w.Coord.String(), clitest.PcChanA); r.Code != cmdutil.ExitRefused {
		t.Fatalf("forged admin was authorized: exit %d %s", r.Code, r.Err)
	}

	text := w.As(clitest.PcOwnerSK, "group", "show", clitest.PcHome)
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, "Home (live)") || !strings.Contains(text.Out, "ignored  kind 39001") {
		t.Fatalf("text output:\n%s", text.Out)
	}
}

func TestGroupShowAfterRemovalAndDeletion(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	w.Group(clitest.PcOwnerSK, grouprelay.KindRemoveUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK)})
	g := clitest.DecodeOut[report.Group](t, w.As(clitest.PcOwnerSK, "group", "show", clitest.PcHome, "--json")).Relays[0]
	if g.Group.RolesOf(clitest.PubOf(t, clitest.PcAdminSK)) != nil || len(g.Group.Members) != 1 {
		t.Fatalf("removed admin still listed: %+v", g.Group)
	}
	w.Group(clitest.PcOwnerSK, grouprelay.KindDeleteGroup)
	g = clitest.DecodeOut[report.Group](t, w.As(clitest.PcOwnerSK, "group", "show", clitest.PcHome, "--json")).Relays[0]
	if g.Live || !g.Group.Metadata.Deleted || len(g.Group.Admins) != 0 {
		t.Fatalf("deleted group %+v", g)
	}
}

func TestGroupShowUnknownGroupIsNotFound(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	r := w.As(clitest.PcOwnerSK, "group", "show", "no-such-group")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "no relay-signed state") {
		t.Fatalf("exit %d %s", r.Code, r.Err)
	}
	r = clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t, "group", "show", "x")
	if r.Code != cmdutil.ExitUsage {
		t.Fatalf("no relays: exit %d %s", r.Code, r.Err)
	}
}
