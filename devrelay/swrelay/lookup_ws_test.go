package swrelay

import (
	"context"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/sections"
)

// nip-sw "Read authorization is applied at every delivery surface: [...] An
// attacker may query a known event ID": over a websocket, a grantee asking
// for their own copy's id gets exactly that event, asking for the stored
// body's id gets nothing, and a bystander gets nothing either way.
func TestKnownEventIDOverWebsocketIsPerReader(t *testing.T) {
	r, community, owner := relayWorld(t)
	viewer, bystander := newActor(t), newActor(t)
	stored := r.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})[0]
	w := openFrom(t, r, community, owner, owner.pk, stored)
	g, _ := w.GrantBody(context.Background(), owner.s, viewer.pk, sections.RoleViewer)
	evt, _ := sections.CommandEvent(owner.pk, g, nostr.Now())
	_ = evt.Sign(owner.sk)
	if err := r.PublishAs(owner.pk, evt); err != nil {
		t.Fatal(err)
	}
	stored = r.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})[0]

	vc := connectAs(t, r, &viewer)
	byD := reqAll(t, vc, nostr.Filter{Kinds: []int{sections.KindProjection}, Tags: nostr.TagMap{"d": {owner.pk}}})
	if len(byD) != 1 || byD[0].ID == stored.ID {
		t.Fatalf("viewer's REQ by d returned %d events (want their own copy, not the stored body)", len(byD))
	}
	mine := byD[0]
	got := reqAll(t, vc, nostr.Filter{IDs: []string{mine.ID}})
	if len(got) != 1 || got[0].ID != mine.ID || !got[0].CheckID() {
		t.Fatalf("viewer's REQ by their copy's id returned %d events", len(got))
	}
	if got := reqAll(t, vc, nostr.Filter{IDs: []string{stored.ID}}); len(got) != 0 {
		t.Fatalf("viewer's REQ by the stored id returned %d events whose ids do not match the filter", len(got))
	}
	bc := connectAs(t, r, &bystander)
	if got := reqAll(t, bc, nostr.Filter{IDs: []string{mine.ID, stored.ID}}); len(got) != 0 {
		t.Fatalf("bystander's REQ by id returned %d events", len(got))
	}
	oc := connectAs(t, r, &owner)
	if got := reqAll(t, oc, nostr.Filter{IDs: []string{stored.ID}}); len(got) != 1 || got[0].ID != stored.ID {
		t.Fatalf("owner's REQ by the stored id returned %d events", len(got))
	}
}
