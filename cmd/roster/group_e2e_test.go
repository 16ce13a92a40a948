package main

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

func TestGroupShowReadsRelaySignedRolesAndIgnoresForgeries(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"}, nostr.Tag{"about", "home channel"})
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
	// A stranger signs a 39001 naming himself admin and gets it stored.
	forged := &nostr.Event{Kind: 39001, CreatedAt: nostr.Now() + 60, Tags: nostr.Tags{{"d", pcHome}, {"p", pubOf(t, pcStrangerSK), "admin"}}}
	if err := forged.Sign(pcStrangerSK); err != nil {
		t.Fatal(err)
	}
	w.relay.Inject(forged)

	r := w.as(pcStrangerSK, "group", "show", pcHome, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.Group](t, r)
	if out.Schema != "roster.group/v1" || len(out.Relays) != 1 || !out.Complete {
		t.Fatalf("%+v", out)
	}
	g := out.Relays[0]
	if !g.Found || !g.Live || g.Self != w.relay.Self() || g.Group.Metadata.Name != "Home" {
		t.Fatalf("relay view %+v", g)
	}
	if roles := g.Group.RolesOf(pubOf(t, pcAdminSK)); len(roles) != 1 || roles[0] != "admin" {
		t.Fatalf("admin roles %v", roles)
	}
	if g.Group.RolesOf(pubOf(t, pcStrangerSK)) != nil || len(g.Group.Rejected) != 1 || g.Group.Rejected[0].EventID != forged.ID {
		t.Fatalf("forged admin list used: %+v", g.Group)
	}
	// The stranger is still refused a project change through that channel.
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome})
	if r := w.as(pcStrangerSK, "project", "relate", w.coord.String(), pcChanA); r.Code != cmdutil.ExitRefused {
		t.Fatalf("forged admin was authorized: exit %d %s", r.Code, r.Err)
	}

	text := w.as(pcOwnerSK, "group", "show", pcHome)
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, "Home (live)") || !strings.Contains(text.Out, "ignored  kind 39001") {
		t.Fatalf("text output:\n%s", text.Out)
	}
}

func TestGroupShowAfterRemovalAndDeletion(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
	w.group(pcOwnerSK, grouprelay.KindRemoveUser, nostr.Tag{"p", pubOf(t, pcAdminSK)})
	g := decodeOut[report.Group](t, w.as(pcOwnerSK, "group", "show", pcHome, "--json")).Relays[0]
	if g.Group.RolesOf(pubOf(t, pcAdminSK)) != nil || len(g.Group.Members) != 1 {
		t.Fatalf("removed admin still listed: %+v", g.Group)
	}
	w.group(pcOwnerSK, grouprelay.KindDeleteGroup)
	g = decodeOut[report.Group](t, w.as(pcOwnerSK, "group", "show", pcHome, "--json")).Relays[0]
	if g.Live || !g.Group.Metadata.Deleted || len(g.Group.Admins) != 0 {
		t.Fatalf("deleted group %+v", g)
	}
}

func TestGroupShowUnknownGroupIsNotFound(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	r := w.as(pcOwnerSK, "group", "show", "no-such-group")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "no relay-signed state") {
		t.Fatalf("exit %d %s", r.Code, r.Err)
	}
	r = invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.roster(t, "group", "show", "x")
	if r.Code != cmdutil.ExitUsage {
		t.Fatalf("no relays: exit %d %s", r.Code, r.Err)
	}
}
