package swrelay

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// "Revocation is atomic: mark the exact grant revoked, advance the key epoch
// by one, replace every active section's encrypted label/icon, and install
// exactly one envelope for the owner and each remaining active grantee."
// "Revocation evicts affected live subscriptions immediately."
func TestRevokeRotatesKeyAndCutsTheReaderOff(t *testing.T) {
	ctx := context.Background()
	h, owner := imported(t, Options{})
	keep, gone := newActor(t), newActor(t)
	h.grant(owner, keep, sections.RoleMover)
	h.grant(owner, gone, sections.RoleMover)
	before, err := h.open(gone, owner.pk)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := h.open(owner, owner.pk)
	rv, err := w.RevokeBody(ctx, owner.s, gone.pk)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.submit(owner, owner.pk, rv); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(h.evicted, gone.pk) {
		t.Fatal("revoked reader's live subscriptions were not evicted")
	}
	p := h.projection(owner.pk)
	if p.KeyEpoch != before.KeyEpoch+1 {
		t.Fatalf("epoch %d, want %d", p.KeyEpoch, before.KeyEpoch+1)
	}
	for _, tag := range h.stored[owner.pk].Tags {
		if len(tag) > 1 && tag[1] == gone.pk {
			t.Fatalf("revoked reader still tagged: %v", tag)
		}
	}
	if _, err := h.open(gone, owner.pk); !errors.Is(err, sections.ErrNoProjection) {
		t.Fatalf("revoked reader still reads: %v", err)
	}
	after, err := h.open(keep, owner.pk)
	if err != nil || after.Sections[0].Label != before.Sections[0].Label || string(after.Key) == string(before.Key) {
		t.Fatalf("remaining reader after rotation: %+v %v", after, err)
	}
	// The old key cannot open the new ciphertexts (epoch and key both changed).
	aad := sections.AAD{Version: 1, Community: community, OwnerPubkey: owner.pk, SectionID: p.Sections[0].ID, KeyEpoch: p.KeyEpoch, Purpose: sections.PurposeLabel}
	if _, err := sections.DecryptMetadata(before.Key, aad, p.Sections[0].EncryptedLabel); !errors.Is(err, sections.ErrMetadataAuth) {
		t.Fatalf("old key opened a new label: %v", err)
	}
	// A command the revoked actor signed (even offline, before) now fails.
	mv, _ := before.MoveBody(uuid('c', 6), before.Sections[0].ID)
	if err := h.submit(gone, owner.pk, mv); prefix(err) != "restricted" {
		t.Fatalf("revoked mover moved: %v", err)
	}
}

func TestRevokeEnvelopeSetMustBeExact(t *testing.T) {
	ctx := context.Background()
	h, owner := imported(t, Options{})
	a, b := newActor(t), newActor(t)
	h.grant(owner, a, sections.RoleViewer)
	h.grant(owner, b, sections.RoleViewer)
	w, _ := h.open(owner, owner.pk)
	rv, _ := w.RevokeBody(ctx, owner.s, a.pk)
	missing := *rv
	missing.Envelopes = rv.Envelopes[:1]
	if err := h.submit(owner, owner.pk, &missing); err == nil || !strings.Contains(err.Error(), "revoke-envelopes") {
		t.Fatalf("missing remaining reader: %v", err)
	}
	stale := *rv
	stale.NewKeyEpoch = w.KeyEpoch + 2
	if err := h.submit(owner, owner.pk, &stale); err == nil || !strings.Contains(err.Error(), "key-epoch") {
		t.Fatalf("epoch skip: %v", err)
	}
	partial := *rv
	partial.Sections = []sections.ReencryptedSection{}
	if err := h.submit(owner, owner.pk, &partial); err == nil || !strings.Contains(err.Error(), "revoke-sections") {
		t.Fatalf("not every section re-encrypted: %v", err)
	}
	if h.projection(owner.pk).KeyEpoch != w.KeyEpoch {
		t.Fatal("a rejected revoke changed state")
	}
	if err := h.submit(owner, owner.pk, rv); err != nil {
		t.Fatal(err)
	}
}

// "maximum ... 256 active delegate grants"
func TestGrantLimit(t *testing.T) {
	limit := sectionstest.Load(t).Limits["grants"]
	h, owner := imported(t, Options{})
	w, _ := h.open(owner, owner.pk)
	ctx := context.Background()
	for i := 0; i < limit; i++ {
		g, err := w.GrantBody(ctx, owner.s, newActor(t).pk, sections.RoleViewer)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.submit(owner, owner.pk, g); err != nil {
			t.Fatalf("grant %d: %v", i+1, err)
		}
	}
	g, _ := w.GrantBody(ctx, owner.s, newActor(t).pk, sections.RoleViewer)
	if err := h.submit(owner, owner.pk, g); err == nil || !strings.Contains(err.Error(), "grants-limit") {
		t.Fatalf("grant %d: %v", limit+1, err)
	}
}

func TestGrantAtStaleEpochRejected(t *testing.T) {
	ctx := context.Background()
	h, owner := imported(t, Options{})
	g, _ := (&sections.Workspace{Owner: owner.pk, Key: make([]byte, 32), KeyEpoch: 2}).GrantBody(ctx, owner.s, newActor(t).pk, sections.RoleViewer)
	if err := h.submit(owner, owner.pk, g); err == nil || !strings.Contains(err.Error(), "key-epoch") {
		t.Fatalf("%v", err)
	}
}

func TestViewWithholdsFromNonReadersAndPassesOtherEvents(t *testing.T) {
	h, owner := imported(t, Options{})
	stored := h.stored[owner.pk]
	if h.a.View(h.env, "", stored) != nil || h.a.View(h.env, newActor(t).pk, stored) != nil {
		t.Fatal("projection delivered to an unauthenticated or unauthorized reader")
	}
	if h.a.View(h.env, owner.pk, stored) != stored {
		t.Fatal("owner does not get the stored projection")
	}
	state := &nostr.Event{Kind: 30623, Tags: nostr.Tags{{"d", "x"}, {"a", "30621:" + owner.pk + ":p"}, {"rev", "1"}}, Content: `{"v":1}`}
	_ = h.env.Sign(state)
	if h.a.View(h.env, "", state) != state {
		t.Fatal("NIP-PC project state was not passed through")
	}
	note := &nostr.Event{Kind: 1, Content: "hi"}
	if h.a.View(h.env, "", note) != note {
		t.Fatal("ordinary event was not passed through")
	}
}

func TestViewGivesEachReaderTheirOwnEnvelope(t *testing.T) {
	h, owner := imported(t, Options{})
	v := newActor(t)
	h.grant(owner, v, sections.RoleViewer)
	evt := h.a.View(h.env, v.pk, h.stored[owner.pk])
	if evt == nil || evt.PubKey != h.relay.pk || evt.ID == h.stored[owner.pk].ID {
		t.Fatalf("viewer got %+v", evt)
	}
	vp, err := sections.VerifyProjection(evt, h.relay.pk, owner.pk)
	if err != nil || vp.Readers[v.pk] != sections.RoleViewer || vp.Readers[owner.pk] != sections.RoleOwner {
		t.Fatalf("%+v %v", vp, err)
	}
	if vp.Projection.ReaderKeyEnvelope == h.projection(owner.pk).ReaderKeyEnvelope {
		t.Fatal("viewer received the owner's envelope")
	}
}

func TestManageAndMoveApply(t *testing.T) {
	h, owner := imported(t, Options{})
	mgr := newActor(t)
	h.grant(owner, mgr, sections.RoleManager)
	w, _ := h.open(mgr, owner.pk)
	add, _ := w.AddBody("Beta", nil)
	if err := h.submit(mgr, owner.pk, add); err != nil {
		t.Fatal(err)
	}
	w, _ = h.open(mgr, owner.pk)
	icon := "star"
	ren, _ := w.RenameBody("Beta", "Gamma", &icon)
	if err := h.submit(mgr, owner.pk, ren); err != nil {
		t.Fatal(err)
	}
	w, _ = h.open(mgr, owner.pk)
	mv, _ := w.MoveBody(uuid('c', 8), "Gamma")
	if err := h.submit(mgr, owner.pk, mv); err != nil {
		t.Fatal(err)
	}
	w, _ = h.open(mgr, owner.pk)
	first := sectionstest.Load(t).Legacy(t).Name
	ro, _ := w.ReorderBody([]string{"Gamma", first})
	if err := h.submit(mgr, owner.pk, ro); err != nil {
		t.Fatal(err)
	}
	w, _ = h.open(owner, owner.pk)
	if len(w.Sections) != 2 || w.Sections[0].Label != "Gamma" || *w.Sections[0].Icon != "star" || w.Sections[1].Label != first {
		t.Fatalf("sections %+v", w.Sections)
	}
	p := h.projection(owner.pk)
	if p.Revision != 6 || p.LayoutRevision != 4 {
		t.Fatalf("revision %d layout %d, want 6 and 4 (import, grant, add, rename, move, reorder)", p.Revision, p.LayoutRevision)
	}
	rm, _ := w.RemoveBody("Gamma")
	if err := h.submit(mgr, owner.pk, rm); err != nil {
		t.Fatal(err)
	}
	w, _ = h.open(owner, owner.pk)
	for _, a := range w.Assignments {
		if a.ChannelID == uuid('c', 8) {
			t.Fatal("assignment to a removed section survived")
		}
	}
	if len(w.Sections) != 1 || w.Sections[0].Rank != 0 {
		t.Fatalf("after remove %+v", w.Sections)
	}
	bad, _ := w.MoveBody(uuid('c', 9), w.Sections[0].ID)
	bad.SectionID = &ren.SectionID // removed
	if err := h.submit(mgr, owner.pk, bad); err == nil || !strings.Contains(err.Error(), "section-missing") {
		t.Fatalf("move to removed section: %v", err)
	}
}
