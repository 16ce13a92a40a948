package devrelay

import (
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Rule (devrelay is a khatru relay with a goroutine-safe store). Many
// writers racing versions of one address and distinct regular events, with
// readers querying throughout, leave exactly the NIP-01 winner and every
// regular event. (Run with -race to check the locking itself: this test
// starts no khatru listener, so `go test -race -run TestStoreIsSafe
// ./devrelay` is meaningful even though make test runs devrelay without it.)
func TestStoreIsSafeForConcurrentWritersAndReaders(t *testing.T) {
	s := newStore()
	const writers, versions = 4, 25
	var addressable, regular [][]*nostr.Event
	for w := 0; w < writers; w++ {
		var a, r []*nostr.Event
		for v := 0; v < versions; v++ {
			a = append(a, sign(t, "alice", 30617, int64(100+w*versions+v), "", nostr.Tag{"d", "repo"}))
			r = append(r, sign(t, "bob", 1, int64(100+w*versions+v), "note", nostr.Tag{"t", "x"}))
		}
		addressable, regular = append(addressable, a), append(regular, r)
	}
	newest := addressable[writers-1][versions-1]

	var wg sync.WaitGroup
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for i := 0; i < 2; i++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if got := s.query(nostr.Filter{Kinds: []int{30617}}); len(got) > 1 {
					t.Errorf("a reader saw %d versions of one address", len(got))
					return
				}
				s.query(nostr.Filter{Kinds: []int{1}})
			}
		}()
	}
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for v := 0; v < versions; v++ {
				_, _ = s.save(addressable[w][v]) // older versions are refused: expected
				if _, err := s.save(regular[w][v]); err != nil {
					t.Errorf("regular event refused: %v", err)
				}
			}
		}(w)
	}
	wg.Wait()
	close(stop)
	readers.Wait()

	if got := s.query(nostr.Filter{Kinds: []int{30617}}); len(got) != 1 || got[0].ID != newest.ID {
		t.Fatalf("stored %d versions, want only the newest %s", len(got), newest.ID)
	}
	if got := s.query(nostr.Filter{Kinds: []int{1}}); len(got) != writers*versions {
		t.Fatalf("stored %d regular events, want %d", len(got), writers*versions)
	}
}
