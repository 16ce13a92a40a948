package graph

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func resolutionJSON(t testing.TB, evts []*nostr.Event, selected string, viewer string) string {
	t.Helper()
	r := Resolve(evts, NewCoordinate(selected, testID), 10_000, Options{Viewer: viewer})
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestResolveIsIndependentOfEventOrder: the result must not depend on the
// order in which relays deliver events, including equal-timestamp
// versions (NIP-01: lowest id wins) and deletions.
func TestResolveIsIndependentOfEventOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 300; round++ {
		data := make([]byte, 64+rng.IntN(192))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		evts := eventsFromBytes(data)
		for _, selAlias := range []string{"alice", "bob"} {
			want := resolutionJSON(t, evts, pk(selAlias), pk("carol"))
			for shuffle := 0; shuffle < 5; shuffle++ {
				perm := append([]*nostr.Event{}, evts...)
				rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
				if got := resolutionJSON(t, perm, pk(selAlias), pk("carol")); got != want {
					t.Fatalf("round %d: order changed the resolution\nwant %s\ngot  %s", round, want, got)
				}
			}
		}
	}
}

// TestLatestBreaksTiesByLowestID pins the NIP-01 tie rule that go-nostr's
// CompareEventPtrReverse gets wrong.
func TestLatestBreaksTiesByLowestID(t *testing.T) {
	a := unsigned(pk("alice"), 100, nostr.Tags{{"name", "one"}})
	b := unsigned(pk("alice"), 100, nostr.Tags{{"name", "two"}})
	older := unsigned(pk("alice"), 99, nostr.Tags{{"name", "old"}})
	want := a
	if b.ID < a.ID {
		want = b
	}
	for _, order := range [][]*nostr.Event{{a, b, older}, {b, a, older}, {older, b, a}} {
		if got := Latest(order)[pk("alice")]; got.ID != want.ID {
			t.Fatalf("latest %s, want lowest id %s", got.ID, want.ID)
		}
	}
}
