package pcrelay

import (
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
