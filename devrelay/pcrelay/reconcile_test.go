package pcrelay

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func TestReconciliationRepublishesWithoutAdvancingTheRevision(t *testing.T) {
	f := newFixture(t)
	first := f.state(f.must(f.identity(100, nostr.Tag{"buzz-related-channel", chanA})))
	out, err := f.pc.Reconcile(f.env)
	if err != nil || len(out) != 1 {
		t.Fatalf("%v %v", out, err)
	}
	repaired := f.state(out)
	// A repair is a new event at the same revision, strictly newer.
	if repaired.Revision != first.Revision || repaired.EventID == first.EventID || repaired.CreatedAt <= first.CreatedAt ||
		repaired.ChangeEvent != first.ChangeEvent || len(repaired.Document.RelatedChannels) != 1 {
		t.Fatalf("first %+v\nrepaired %+v", first, repaired)
	}
	// The next change still advances by exactly one.
	if st := f.state(f.must(f.change(ownerSK, first.Revision, []string{chanB}, nil))); st.Revision != first.Revision+1 || st.CreatedAt <= repaired.CreatedAt {
		t.Fatalf("after repair %+v", st)
	}
	f.env.Community = "elsewhere"
	if out, _ := f.pc.Reconcile(f.env); len(out) != 0 {
		t.Fatalf("reconciled another community's projects: %v", out)
	}
}

// nip-pc.md: "The relational row remains authoritative if projection
// publication or fan-out fails. The relay MUST retain a durable retry or
// reconciliation path [...] Reconciliation republishes the current row
// without advancing its revision." A projection the store lost is signed
// again with the next event the authority ingests, without advancing the
// revision; a stored one is left alone.
func TestLostProjectionIsRepublishedWithTheNextIngest(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	f.dropNext = true
	lost := f.state(f.must(f.change(ownerSK, 1, []string{chanA}, nil)))
	if _, ok := f.kept[lost.EventID]; ok {
		t.Fatal("the fixture stored the projection it was told to drop")
	}

	f.now++
	unrelated := sign(t, otherSK, &nostr.Event{Kind: nostr.KindDeletion, CreatedAt: f.now, Tags: nostr.Tags{{"e", strings.Repeat("ab", 32)}}})
	out := f.must(f.ingest(unrelated.PubKey, unrelated))
	repaired := f.state(out)
	if repaired.Revision != lost.Revision || repaired.EventID == lost.EventID || repaired.CreatedAt <= lost.CreatedAt ||
		repaired.ChangeEvent != lost.ChangeEvent || !repaired.Document.Related(chanA) {
		t.Fatalf("lost %+v\nrepaired %+v", lost, repaired)
	}

	f.now++
	again := sign(t, otherSK, &nostr.Event{Kind: nostr.KindDeletion, CreatedAt: f.now, Tags: nostr.Tags{{"e", strings.Repeat("cd", 32)}}})
	if out := f.must(f.ingest(again.PubKey, again)); len(out) != 1 || out[0] != again {
		t.Fatalf("a stored projection was republished: %v", out)
	}
	if st := f.state(f.must(f.change(ownerSK, lost.Revision, []string{chanB}, nil))); st.Revision != lost.Revision+1 {
		t.Fatalf("after the repair the next change is at revision %d", st.Revision)
	}
}
