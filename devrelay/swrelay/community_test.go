package swrelay

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// "Community is server-resolved and included in every database key. Same
// owner/section/channel UUIDs in another community are unrelated."
func TestSameOwnerInAnotherCommunityIsAnotherWorkspace(t *testing.T) {
	h, owner := imported(t, Options{})
	imp := sectionstest.Load(t).Canonicalization.ImportCommand
	body, err := sections.DecodeBody(sections.KindImport, []byte(imp.Canonical))
	if err != nil {
		t.Fatal(err)
	}
	h.env.Community = "other.example"
	h.stored = map[string]*nostr.Event{} // the harness keeps one community's projections
	if err := h.submit(owner, owner.pk, body); err != nil {
		t.Fatalf("import in another community: %v", err)
	}
	if got := len(h.a.workspaces); got != 2 {
		t.Fatalf("%d workspaces, want one per community", got)
	}
}

// "repeated identical action_id + command hash is idempotent"
func TestRepeatedIdenticalImportIsIdempotent(t *testing.T) {
	h := newHarness(t, Options{})
	owner := newActor(t)
	imp := sectionstest.Load(t).Canonicalization.ImportCommand
	body, _ := sections.DecodeBody(sections.KindImport, []byte(imp.Canonical))
	evt, err := sections.CommandEvent(owner.pk, body, h.now)
	if err != nil {
		t.Fatal(err)
	}
	_ = evt.Sign(owner.sk)
	if err := h.ingest(owner.pk, evt); err != nil {
		t.Fatal(err)
	}
	first := h.stored[owner.pk]
	if err := h.ingest(owner.pk, evt); err != nil {
		t.Fatalf("identical retry: %v", err)
	}
	if h.stored[owner.pk] != first || h.projection(owner.pk).Revision != 1 {
		t.Fatal("identical retry produced a new projection")
	}
	row := h.a.workspaces[wsKey{community, owner.pk}].actions[body.Action()]
	if row.hash != imp.SHA256 {
		t.Fatalf("action row hash %s, want the fixture's command hash %s", row.hash, imp.SHA256)
	}
}
