package swrelay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/relaytest"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// These tests run the authority inside a real devrelay over websockets:
// "Read authorization is applied at every delivery surface: historical REQ,
// live subscription/fan-out, [...] known event ID", and "Revocation evicts
// affected live subscriptions immediately."

// connectAs opens a client connection to r, authenticated as who unless who
// is nil.
func connectAs(t *testing.T, r *devrelay.Relay, who *actor) *nostr.Relay {
	t.Helper()
	sk := ""
	if who != nil {
		sk = who.sk
	}
	return relaytest.Connect(t, r.URL(), sk)
}

// reqAll runs one REQ and returns the stored events it delivered.
func reqAll(t *testing.T, c *nostr.Relay, f nostr.Filter) []*nostr.Event {
	t.Helper()
	evs, _ := relaytest.Query(t, c, f)
	return evs
}

// relayWorld: a devrelay with this authority, and an owner who imported the
// fixture's legacy blob through it.
func relayWorld(t *testing.T) (r *devrelay.Relay, community string, owner actor) {
	t.Helper()
	r = devrelay.StartN(t, 1, devrelay.Options{Authorities: []devrelay.Authority{New(Options{})}})[0]
	return importInto(t, r)
}

// importInto has a new owner import the fixture's legacy blob through r.
func importInto(t *testing.T, r *devrelay.Relay) (_ *devrelay.Relay, community string, owner actor) {
	t.Helper()
	community, owner = strings.TrimPrefix(r.URL(), "ws://"), newActor(t)
	evt, _ := sections.CommandEvent(owner.pk, importBody(t, owner, community, nostr.Now()), nostr.Now())
	_ = evt.Sign(owner.sk)
	if err := r.PublishAs(owner.pk, evt); err != nil {
		t.Fatal(err)
	}
	return r, community, owner
}

// openFrom verifies and decrypts a delivered projection.
func openFrom(t *testing.T, r *devrelay.Relay, community string, who actor, owner string, evt *nostr.Event) *sections.Workspace {
	t.Helper()
	v, err := sections.VerifyProjection(evt, r.Self(), owner)
	if err != nil {
		t.Fatal(err)
	}
	w, err := sections.Open(context.Background(), who.s, community, v)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestEveryDeliverySurfaceIsAuthorizedAndRevocationEvicts(t *testing.T) {
	r, community, owner := relayWorld(t)
	viewer, bystander := newActor(t), newActor(t)
	stored := r.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})[0]

	// Grant the viewer through the relay.
	ownerView := openFrom(t, r, community, owner, owner.pk, stored)
	g, _ := ownerView.GrantBody(context.Background(), owner.s, viewer.pk, sections.RoleViewer)
	evt, _ := sections.CommandEvent(owner.pk, g, nostr.Now())
	_ = evt.Sign(owner.sk)
	if err := r.PublishAs(owner.pk, evt); err != nil {
		t.Fatal(err)
	}
	stored = r.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})[0]
	f := nostr.Filter{Kinds: []int{sections.KindProjection}, Tags: nostr.TagMap{"d": {owner.pk}}}

	// Historical REQ.
	vc := connectAs(t, r, &viewer)
	got := reqAll(t, vc, f)
	if len(got) != 1 || openFrom(t, r, community, viewer, owner.pk, got[0]).Sections[0].Label != sectionstest.Load(t).Legacy(t).Name {
		t.Fatalf("viewer's REQ returned %d events", len(got))
	}
	bc := connectAs(t, r, &bystander)
	if got := reqAll(t, bc, f); len(got) != 0 {
		t.Fatalf("bystander's REQ returned %d projections", len(got))
	}
	if got := reqAll(t, connectAs(t, r, nil), f); len(got) != 0 {
		t.Fatalf("unauthenticated REQ returned %d projections", len(got))
	}
	// Known event id.
	if got := reqAll(t, bc, nostr.Filter{IDs: []string{stored.ID}}); len(got) != 0 {
		t.Fatal("bystander fetched the projection by its id")
	}

	// Live subscriptions.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	vLive, err := vc.Subscribe(ctx, nostr.Filters{f})
	if err != nil {
		t.Fatal(err)
	}
	bLive, err := bc.Subscribe(ctx, nostr.Filters{f})
	if err != nil {
		t.Fatal(err)
	}
	drainToEOSE(t, ctx, vLive)
	drainToEOSE(t, ctx, bLive)
	w := openFrom(t, r, community, owner, owner.pk, stored)
	add, _ := w.AddBody("Beta", nil)
	evt, _ = sections.CommandEvent(owner.pk, add, nostr.Now())
	_ = evt.Sign(owner.sk)
	if err := r.PublishAs(owner.pk, evt); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-vLive.Events:
		if got := openFrom(t, r, community, viewer, owner.pk, e); len(got.Sections) != 2 {
			t.Fatalf("live projection has %d sections", len(got.Sections))
		}
	case <-ctx.Done():
		t.Fatal("viewer's live subscription got nothing")
	}

	// Revoke: the viewer's live subscription is closed at once.
	stored = r.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})[0]
	w = openFrom(t, r, community, owner, owner.pk, stored)
	rv, _ := w.RevokeBody(context.Background(), owner.s, viewer.pk)
	evt, _ = sections.CommandEvent(owner.pk, rv, nostr.Now())
	_ = evt.Sign(owner.sk)
	if err := r.PublishAs(owner.pk, evt); err != nil {
		t.Fatal(err)
	}
	select {
	case reason := <-vLive.ClosedReason:
		if !strings.HasPrefix(reason, "restricted:") {
			t.Fatalf("CLOSED %q", reason)
		}
	case e, open := <-vLive.Events:
		if open {
			t.Fatalf("revoked viewer received a projection: %s", e.Content)
		}
		// go-nostr closes Events when the CLOSED arrives; the reason may
		// race with it, so check it only if it is there.
		select {
		case reason := <-vLive.ClosedReason:
			if !strings.HasPrefix(reason, "restricted:") {
				t.Fatalf("CLOSED %q", reason)
			}
		default:
		}
	case <-ctx.Done():
		t.Fatal("revoked viewer's live subscription stayed open")
	}
	if got := reqAll(t, vc, f); len(got) != 0 {
		t.Fatal("revoked viewer still reads the projection")
	}
	select {
	case e := <-bLive.Events:
		t.Fatalf("bystander's live subscription received %s", e.ID)
	default:
	}
}

func drainToEOSE(t *testing.T, ctx context.Context, sub *nostr.Subscription) {
	t.Helper()
	for {
		select {
		case <-sub.Events:
		case <-sub.EndOfStoredEvents:
			return
		case <-ctx.Done():
			t.Fatal("no EOSE")
		}
	}
}
