package swrelay

import (
	"context"
	"strings"
	"testing"

	"github.com/roster-cli/roster/workspace/sections"
)

// NIP-SW: "the relay authorizes and applies commands transactionally": a command that fails part-way leaves
// the committed state exactly as it was. applyRevoke deactivates the grant
// before it finds the envelope set wrong; only applying to a clone keeps
// that half-done change out of the workspace, so after the rejection the
// reader still holds an active grant, can still read, and no revision,
// epoch or action row moved.
func TestRejectedCommandLeavesTheCommittedStateUntouched(t *testing.T) {
	ctx := context.Background()
	h, owner := imported(t, Options{})
	a, b := newActor(t), newActor(t)
	h.grant(owner, a, sections.RoleViewer)
	h.grant(owner, b, sections.RoleViewer)
	ws := h.a.workspaces[wsKey{community, owner.pk}]
	rev, layout, epoch, actions := ws.revision, ws.layoutRevision, ws.keyEpoch, len(ws.actions)

	w, _ := h.open(owner, owner.pk)
	rv, err := w.RevokeBody(ctx, owner.s, a.pk)
	if err != nil {
		t.Fatal(err)
	}
	missing := *rv
	missing.Envelopes = rv.Envelopes[:1]
	if err := h.submit(owner, owner.pk, &missing); err == nil || !strings.Contains(err.Error(), "revoke-envelopes") {
		t.Fatalf("want revoke-envelopes, got %v", err)
	}

	ws = h.a.workspaces[wsKey{community, owner.pk}]
	if g := ws.grants[a.pk]; !g.active {
		t.Fatal("a rejected revoke left the grant deactivated")
	}
	if ws.revision != rev || ws.layoutRevision != layout || ws.keyEpoch != epoch || len(ws.actions) != actions {
		t.Fatalf("rejected revoke moved state: revision %d->%d layout %d->%d epoch %d->%d actions %d->%d",
			rev, ws.revision, layout, ws.layoutRevision, epoch, ws.keyEpoch, actions, len(ws.actions))
	}
	if _, err := h.open(a, owner.pk); err != nil {
		t.Fatalf("the reader of a rejected revoke can no longer read: %v", err)
	}
	// The same action id with the correct envelopes still commits: the
	// failure recorded no action row.
	if err := h.submit(owner, owner.pk, rv); err != nil {
		t.Fatalf("the corrected revoke: %v", err)
	}
}
