package testkeys

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

var sybilCache sync.Map // "identifier/n" -> []*nostr.Event

// Sybils returns n valid kind 30617 announcements of identifier, each by
// its own deterministic key (Named("sybil-", i)), each naming only its
// author: same-identifier spam that joins no repository. Signing thousands
// of events takes seconds, so they are signed once per test binary and
// shared; callers must not change them.
func Sybils(t testing.TB, identifier string, n int) []*nostr.Event {
	t.Helper()
	key := fmt.Sprintf("%s/%d", identifier, n)
	if v, ok := sybilCache.Load(key); ok {
		return v.([]*nostr.Event)
	}
	out := make([]*nostr.Event, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				sk := Named("sybil-", fmt.Sprint(i))
				pk, err := nostr.GetPublicKey(sk)
				if err != nil {
					errs[i] = err
					continue
				}
				evt := &nostr.Event{Kind: 30617, CreatedAt: nostr.Timestamp(1_700_000_000 + i), Tags: nostr.Tags{
					{"d", identifier}, {"name", fmt.Sprintf("spam %d", i)},
					{"M", pk}, {"m", pk}, {"maintainers", pk},
				}}
				errs[i] = evt.Sign(sk)
				out[i] = evt
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	v, _ := sybilCache.LoadOrStore(key, out)
	return v.([]*nostr.Event)
}
