package devrelay

import (
	"math/rand"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// NIP-01 replacement must not depend on arrival order: whatever order the
// versions of one address arrive in, the relay ends up holding the newest,
// lowest id on created_at ties.
func TestReplacementKeepsTheNIP01WinnerWhateverTheArrivalOrder(t *testing.T) {
	var versions []*nostr.Event
	for i := 0; i < 12; i++ {
		// Few distinct timestamps, so ties are common.
		versions = append(versions, sign(t, "alice", 30617, int64(100+i%3), string(rune('a'+i)), nostr.Tag{"d", "repo"}))
	}
	winner := versions[0]
	for _, v := range versions[1:] {
		if supersedes(v, winner) {
			winner = v
		}
	}
	for seed := int64(0); seed < 20; seed++ {
		r, err := New(Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(r.Close)
		order := rand.New(rand.NewSource(seed)).Perm(len(versions))
		for _, i := range order {
			_ = r.Publish(versions[i])
		}
		got := r.Stored(nostr.Filter{Kinds: []int{30617}})
		if len(got) != 1 || got[0].ID != winner.ID {
			t.Fatalf("order %v: stored %v, want only %s", order, got, winner.ID)
		}
	}
}

// NIP-09: a deletion of an address at T covers every version up to T, in
// whichever order the deletion and the versions arrive; later versions stand.
func TestAddressDeletionCoversVersionsUpToItsTimeInAnyOrder(t *testing.T) {
	del := sign(t, "alice", 5, 150, "", nostr.Tag{"a", "30617:" + testPub("alice") + ":repo"})
	old1 := sign(t, "alice", 30617, 100, "old", nostr.Tag{"d", "repo"})
	old2 := sign(t, "alice", 30617, 150, "same second", nostr.Tag{"d", "repo"})
	newer := sign(t, "alice", 30617, 151, "new", nostr.Tag{"d", "repo"})
	all := []*nostr.Event{del, old1, old2, newer}
	for seed := int64(0); seed < 20; seed++ {
		r, err := New(Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(r.Close)
		for _, i := range rand.New(rand.NewSource(seed)).Perm(len(all)) {
			_ = r.Publish(all[i])
		}
		got := r.Stored(nostr.Filter{Kinds: []int{30617}})
		if len(got) != 1 || got[0].ID != newer.ID {
			t.Fatalf("seed %d: stored %v, want only the version after the deletion", seed, got)
		}
		if len(r.Stored(nostr.Filter{Kinds: []int{5}})) != 1 {
			t.Fatalf("seed %d: the deletion request must be kept", seed)
		}
	}
}
