package pcrelay

import (
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/projects"
)

func TestFirstOwnerIdentityMaterializesRevision1(t *testing.T) {
	f := newFixture(t)
	out := f.must(f.identity(100, nostr.Tag{"name", "Demo"}, nostr.Tag{"buzz-channel", home}))
	if len(out) != 2 || out[0].Kind != 30621 {
		t.Fatalf("emitted %v", out)
	}
	st := f.state(out)
	if st.Revision != 1 || st.Deleted || st.Document.Name != "Demo" || st.IdentityEvent != out[0].ID || st.ChangeEvent != out[0].ID {
		t.Fatalf("state %+v", st)
	}
}

func TestNewerIdentityKeepsCollaborativeRelatedChannelsAndExcludesNewHome(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100, nostr.Tag{"buzz-related-channel", chanA}))
	f.must(f.change(ownerSK, 1, []string{chanB}, nil))
	// The new identity lists C, makes B the home channel and forgets A.
	st := f.state(f.must(f.identity(200, nostr.Tag{"name", "Renamed"}, nostr.Tag{"buzz-channel", chanB}, nostr.Tag{"buzz-related-channel", chanC})))
	if st.Revision != 3 || st.Document.Name != "Renamed" || st.Document.HomeChannel != chanB ||
		fmt.Sprint(st.Document.RelatedChannels) != fmt.Sprint([]string{chanA, chanC}) {
		t.Fatalf("state %+v", st)
	}
}

func TestDuplicateOrSupersededIdentityDoesNotAdvanceTheRevision(t *testing.T) {
	f := newFixture(t)
	first := sign(t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: 100, Tags: nostr.Tags{{"d", "demo"}}})
	f.must(f.ingest("", first))
	out, err := f.ingest("", first)
	if err != nil || len(out) != 0 {
		t.Fatalf("duplicate: %v %v", out, err)
	}
	_, err = f.identity(99, nostr.Tag{"name", "older"})
	wantPrefix(t, err, "duplicate:")
	st := f.state(f.must(f.identity(101)))
	if st.Revision != 2 {
		t.Fatalf("revision %d after one duplicate and one superseded identity, want 2", st.Revision)
	}
}

func TestIdentityUnionOver64RelatedChannelsIsRejected(t *testing.T) {
	f := newFixture(t)
	var tags []nostr.Tag
	for i := 0; i < 64; i++ {
		tags = append(tags, nostr.Tag{"buzz-related-channel", fmt.Sprintf("00000000-0000-4000-8000-%012d", i)})
	}
	f.must(f.identity(100, tags...))
	_, err := f.identity(200, nostr.Tag{"buzz-related-channel", chanA})
	wantPrefix(t, err, "invalid:")
}

func TestClientSubmittedProjectStateIsRejectedEvenWhenSignedByTheRelayKey(t *testing.T) {
	f := newFixture(t)
	out := f.must(f.identity(100))
	forged := *out[1]
	forged.CreatedAt++
	forged.Tags = append(nostr.Tags(nil), forged.Tags...)
	sign(t, relaySK, &forged)
	_, err := f.ingest(f.env.Self, &forged)
	wantPrefix(t, err, "restricted:")
}

func TestProjectionCreatedAtStrictlyIncreases(t *testing.T) {
	f := newFixture(t)
	f.now = 5000
	a := f.state(f.must(f.identity(100)))
	b := f.state(f.must(f.change(ownerSK, 1, []string{chanA}, nil)))
	c := f.state(f.must(f.change(ownerSK, 2, nil, []string{chanA})))
	if a.CreatedAt != 5000 || b.CreatedAt != 5001 || c.CreatedAt != 5002 {
		t.Fatalf("created_at %d %d %d with a stopped clock", a.CreatedAt, b.CreatedAt, c.CreatedAt)
	}
	f.now = 9000
	if d := f.state(f.must(f.identity(200))); d.CreatedAt != 9000 {
		t.Fatalf("created_at %d, want now", d.CreatedAt)
	}
}

func TestRevisionOverflowRejectsTheMutation(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	r := f.pc.rows[key(f.env, f.coord())]
	r.revision = projects.MaxRevision
	_, err := f.change(ownerSK, projects.MaxRevision, []string{chanA}, nil)
	if err == nil {
		t.Fatal("mutation past the largest revision accepted")
	}
	if _, err := f.identity(200); err == nil {
		t.Fatal("identity past the largest revision accepted")
	}
	if r := f.pc.rows[key(f.env, f.coord())]; r.revision != projects.MaxRevision || len(r.related) != 0 {
		t.Fatalf("state changed: %+v", r)
	}
}

func TestSameCoordinateInAnotherCommunityIsUnrelated(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	f.must(f.change(ownerSK, 1, []string{chanA}, nil))
	f.env.Community = "other.test"
	st := f.state(f.must(f.identity(100)))
	if st.Revision != 1 || len(st.Document.RelatedChannels) != 0 {
		t.Fatalf("state leaked across communities: %+v", st)
	}
}
