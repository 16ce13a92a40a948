package pcrelay

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/projects"
)

func (f *fixture) deleteProject(sk string, at nostr.Timestamp, tags ...nostr.Tag) ([]*nostr.Event, error) {
	e := sign(f.t, sk, &nostr.Event{Kind: 5, CreatedAt: at, Tags: tags})
	return f.ingest("", e)
}

func TestDeletionAndRecreationKeepRevisionsIncreasing(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100, nostr.Tag{"buzz-related-channel", chanA}))                // 1
	f.must(f.change(ownerSK, 1, []string{chanB}, nil))                               // 2
	out := f.must(f.deleteProject(ownerSK, 150, nostr.Tag{"a", f.coord().String()})) // 3
	if out[0].Kind != 5 {
		t.Fatalf("the deletion request is not passed to storage: %v", out)
	}
	st := f.state(out)
	if st.Revision != 3 || !st.Deleted || out[1].Content != `{"v":1,"deleted":true,"project_tags":[]}` {
		t.Fatalf("tombstone %+v %s", st, out[1].Content)
	}
	// A deleted project takes no changes.
	_, err := f.change(ownerSK, 3, []string{chanC}, nil)
	wantPrefix(t, err, "invalid:")
	// Recreation is the next revision, never 1, and starts from the identity alone.
	st = f.state(f.must(f.identity(200, nostr.Tag{"buzz-related-channel", chanC}))) // 4
	if st.Revision != 4 || st.Deleted || len(st.Document.RelatedChannels) != 1 || st.Document.RelatedChannels[0] != chanC {
		t.Fatalf("recreated %+v", st)
	}
	st = f.state(f.must(f.change(ownerSK, 4, []string{chanA}, nil))) // 5
	if st.Revision != 5 {
		t.Fatalf("after recreation %+v", st)
	}
}

func TestDeletionByEventIDOfTheCurrentIdentity(t *testing.T) {
	f := newFixture(t)
	id := f.must(f.identity(100))[0]
	st := f.state(f.must(f.deleteProject(ownerSK, 150, nostr.Tag{"e", id.ID})))
	if !st.Deleted || st.Revision != 2 {
		t.Fatalf("%+v", st)
	}
	again := f.must(f.deleteProject(ownerSK, 160, nostr.Tag{"e", id.ID}))
	if len(again) != 1 {
		t.Fatalf("deleting a deleted project advanced it: %v", again)
	}
}

func TestRecreationNotNewerThanTheDeletionIsBlocked(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	f.must(f.deleteProject(ownerSK, 150, nostr.Tag{"a", f.coord().String()}))
	_, err := f.identity(150)
	wantPrefix(t, err, "blocked:")
}

func TestDeletionBySomeoneElseOrOfAnOlderVersionDoesNothing(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	out := f.must(f.deleteProject(otherSK, 150, nostr.Tag{"a", f.coord().String()}))
	if len(out) != 1 {
		t.Fatalf("a stranger's deletion tombstoned the project: %v", out)
	}
	out = f.must(f.deleteProject(ownerSK, 50, nostr.Tag{"a", f.coord().String()}))
	if len(out) != 1 {
		t.Fatalf("a deletion older than the identity tombstoned it: %v", out)
	}
	if r := f.pc.rows[key(f.env, f.coord())]; r.deleted || r.revision != 1 {
		t.Fatalf("row %+v", r)
	}
}

func TestOtherDeletionsPassThroughUntouched(t *testing.T) {
	f := newFixture(t)
	e := sign(t, otherSK, &nostr.Event{Kind: 5, CreatedAt: 1, Tags: nostr.Tags{{"e", f.coord().Owner}}})
	out := f.must(f.ingest("", e))
	if len(out) != 1 || out[0] != e {
		t.Fatalf("emitted %v", out)
	}
}

// nip-pc.md: "Commands, identity replacement, and deletion each commit
// atomically with their relational update", and "overflow rejects the
// mutation". A refused deletion leaves no trace: the deletion time it
// carried does not block a later recreation.
func TestRefusedDeletionChangesNothing(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	k := key(f.env, f.coord())
	f.pc.rows[k].revision = projects.MaxRevision
	if _, err := f.deleteProject(ownerSK, 200, nostr.Tag{"a", f.coord().String()}); err == nil {
		t.Fatal("deletion past the largest revision accepted")
	}
	if r := f.pc.rows[k]; r.deleted || r.deletedAt != 0 {
		t.Fatalf("a refused deletion changed the row: deleted=%v deletedAt=%d", r.deleted, r.deletedAt)
	}
	f.pc.rows[k].revision = 5
	if st := f.state(f.must(f.identity(150))); st.Revision != 6 || st.Deleted {
		t.Fatalf("identity after the refused deletion: %+v", st)
	}
}
