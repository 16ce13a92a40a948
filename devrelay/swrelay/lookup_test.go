package swrelay

import (
	"testing"

	"github.com/roster-cli/roster/workspace/sections"
)

// nip-sw.md: "Because envelopes differ per reader, the relay synthesizes a
// reader-specific response", and read authorization applies to a query by
// "a known event ID". A grantee's copy must therefore be the same event on
// every delivery, so that its id is a stable handle the grantee can look up.
func TestGranteeCopyIsTheSameEventOnEveryDelivery(t *testing.T) {
	h, owner := imported(t, Options{})
	v := newActor(t)
	h.grant(owner, v, sections.RoleViewer)
	first := h.a.View(h.env, v.pk, h.stored[owner.pk])
	second := h.a.View(h.env, v.pk, h.stored[owner.pk])
	if first == nil || second == nil || first.ID != second.ID {
		t.Fatalf("two deliveries of one stored projection to one grantee differ: %v / %v", first, second)
	}
}

// Query by id: the owner finds the stored projection under its id; a grantee
// finds their own copy under its id and nothing under the stored id (an
// event with another id would not match the filter, and the stored body
// carries the owner's envelope); a bystander and a revoked reader find
// nothing under any id.
func TestLookupByIDIsPerReaderAndMatchesTheRequestedID(t *testing.T) {
	h, owner := imported(t, Options{})
	v, bystander := newActor(t), newActor(t)
	h.grant(owner, v, sections.RoleViewer)
	stored := h.stored[owner.pk]
	copyForV := h.a.View(h.env, v.pk, stored)

	if got := h.a.LookupID(h.env, owner.pk, stored.ID); got == nil || got.ID != stored.ID {
		t.Fatalf("owner looked up the stored id and got %v", got)
	}
	if got := h.a.LookupID(h.env, v.pk, copyForV.ID); got == nil || got.ID != copyForV.ID {
		t.Fatalf("grantee looked up their copy's id and got %v", got)
	}
	if _, err := sections.VerifyProjection(copyForV, h.relay.pk, owner.pk); err != nil {
		t.Fatal(err)
	}
	if got := h.a.LookupID(h.env, v.pk, stored.ID); got != nil {
		t.Fatalf("grantee looked up the stored id and got event %s", got.ID)
	}
	for _, id := range []string{stored.ID, copyForV.ID} {
		if h.a.LookupID(h.env, bystander.pk, id) != nil || h.a.LookupID(h.env, "", id) != nil {
			t.Fatalf("a bystander or an unauthenticated reader found %s", id)
		}
	}

	w, err := h.open(owner, owner.pk)
	if err != nil {
		t.Fatal(err)
	}
	rv, err := w.RevokeBody(t.Context(), owner.s, v.pk)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.submit(owner, owner.pk, rv); err != nil {
		t.Fatal(err)
	}
	if got := h.a.LookupID(h.env, v.pk, copyForV.ID); got != nil {
		t.Fatal("a revoked reader still finds their old copy by id")
	}
}
