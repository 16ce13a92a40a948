package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Rule (Reachable): resolving only the events of the reachable authors gives
// exactly the resolution of everything, for random adversarial graphs with
// unrelated same-identifier announcements (some naming members of the
// graph, which does not make them reachable) and their deletions.
func TestResolutionDependsOnlyOnReachableAuthors(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := 0; round < 300; round++ {
		data := make([]byte, 64+rng.IntN(192))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		evts := eventsFromBytes(data)
		for i := 0; i < 4; i++ {
			spammer := pk(fmt.Sprintf("spam%d", i))
			named := pk(fuzzAliases[rng.IntN(len(fuzzAliases))])
			ann := unsigned(spammer, int64(rng.IntN(8)), nostr.Tags{{"M", named}, {"m", spammer}, {"o", named}, {"maintainers", named}})
			evts = append(evts, ann)
			if i%2 == 0 {
				d := &nostr.Event{PubKey: spammer, Kind: KindDeletion, CreatedAt: 9, Tags: nostr.Tags{{"e", ann.ID}}}
				d.ID = d.GetID()
				evts = append(evts, d)
			}
		}
		for _, sel := range []string{"alice", "bob"} {
			viewer := pk("carol")
			reach := Reachable(evts, NewCoordinate(pk(sel), testID), viewer)
			var kept []*nostr.Event
			for _, e := range evts {
				if slices.Contains(reach, e.PubKey) {
					kept = append(kept, e)
				}
			}
			if got, want := resolutionJSON(t, kept, pk(sel), viewer), resolutionJSON(t, evts, pk(sel), viewer); got != want {
				t.Fatalf("round %d, selected %s: the reachable authors' events resolve differently\nall       %s\nreachable %s", round, sel, want, got)
			}
		}
	}
}

// Rule (Reachable): an announcement that names the selected author without
// being named back is not reachable; one a reached author names is.
func TestReachableFollowsNamesForwardOnly(t *testing.T) {
	alice, bob, mallory := pk("alice"), pk("bob"), pk("mallory")
	evts := []*nostr.Event{
		unsigned(alice, 1, nostr.Tags{{"M", alice}, {"m", bob, "1"}}),
		unsigned(bob, 1, nostr.Tags{{"M", alice, "1"}, {"m", bob, "1"}}),
		unsigned(mallory, 1, nostr.Tags{{"M", alice}, {"m", mallory}}),
	}
	got := Reachable(evts, NewCoordinate(alice, testID))
	want := []string{alice, bob}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("Reachable = %v, want alice and bob only", got)
	}
}
