package swrelay

import (
	"strings"
	"testing"
)

// A move with a null section_id removes the channel's assignment and
// advances the revision, not the layout revision; a channel in no section is
// refused and the state stays as it was.
func TestMoveWithNullSectionUnassigns(t *testing.T) {
	h, owner := imported(t, Options{})
	w, _ := h.open(owner, owner.pk)
	mv, _ := w.MoveBody(uuid('c', 3), w.Sections[0].ID)
	if err := h.submit(owner, owner.pk, mv); err != nil {
		t.Fatal(err)
	}
	before := h.projection(owner.pk)
	w, _ = h.open(owner, owner.pk)
	un, err := w.UnassignBody(uuid('c', 3))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.submit(owner, owner.pk, un); err != nil {
		t.Fatal(err)
	}
	after := h.projection(owner.pk)
	if after.Revision != before.Revision+1 || after.LayoutRevision != before.LayoutRevision {
		t.Fatalf("revisions %d/%d -> %d/%d", before.Revision, before.LayoutRevision, after.Revision, after.LayoutRevision)
	}
	for _, a := range after.Assignments {
		if a.ChannelID == uuid('c', 3) {
			t.Fatal("the unassigned channel still has a section")
		}
	}
	again := *un
	again.ActionID = uuid('e', 7)
	if err := h.submit(owner, owner.pk, &again); err == nil || !strings.Contains(err.Error(), "channel-unassigned") {
		t.Fatalf("unassigning a channel in no section: %v", err)
	}
	if h.projection(owner.pk).Revision != after.Revision {
		t.Fatal("a refused unassign changed the state")
	}
}
