package cache

import (
	"strings"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// One open *Cache is shared by goroutines (relay fetches, NIP-11, workspace
// sync); run under -race.
func TestOneCacheIsSafeForConcurrentUse(t *testing.T) {
	c, _ := openTemp(t)
	const writers, perWriter = 4, 10
	evts := make([][]*nostr.Event, writers)
	for w := range evts {
		for i := 0; i < perWriter; i++ {
			evts[w] = append(evts[w], signed(t, aliceSK, 1, int64(w*100+i), "concurrent"))
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers*2)
	for w := 0; w < writers; w++ {
		wg.Add(2)
		go func(batch []*nostr.Event) {
			defer wg.Done()
			for _, e := range batch {
				if err := c.Put(e); err != nil {
					errs <- err
				}
			}
		}(evts[w])
		go func() {
			defer wg.Done()
			if _, err := c.Query(nostr.Filter{Kinds: []int{1}}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := query(t, c, nostr.Filter{Kinds: []int{1}}); len(got) != writers*perWriter {
		t.Fatalf("stored %d events, want %d", len(got), writers*perWriter)
	}
}

func TestOpenWithoutHomeSaysHowToSetIt(t *testing.T) {
	if _, err := Open(""); err == nil || !strings.Contains(err.Error(), "ROSTER_HOME") {
		t.Fatalf("got %v", err)
	}
}
