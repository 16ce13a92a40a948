package devrelay

import (
	"context"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// delays are the one-shot answer delays DelayNext arms.
type delays struct {
	mu    sync.Mutex
	rules []delayRule
}

type delayRule struct {
	match func(nostr.Filter) bool
	d     time.Duration
}

// DelayNext makes the relay hold its answer to the next REQ filter match
// accepts for d, once: the relay reads its store when the delay ends, so the
// answer (and the REQ's EOSE) is what it stores then, like a relay that is
// slow to answer one request. Rules armed together apply in order, each to
// one filter.
func (r *Relay) DelayNext(match func(nostr.Filter) bool, d time.Duration) {
	r.delays.mu.Lock()
	defer r.delays.mu.Unlock()
	r.delays.rules = append(r.delays.rules, delayRule{match: match, d: d})
}

// take removes and returns the delay of the first rule matching f (0: none).
func (ds *delays) take(f nostr.Filter) time.Duration {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	for i, rule := range ds.rules {
		if rule.match(f) {
			ds.rules = append(ds.rules[:i:i], ds.rules[i+1:]...)
			return rule.d
		}
	}
	return 0
}

// delayed answers f after d, from the store as it is then.
func (r *Relay) delayed(ctx context.Context, reader string, f nostr.Filter, d time.Duration) chan *nostr.Event {
	ch := make(chan *nostr.Event)
	go func() {
		defer close(ch)
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		case <-r.closed:
			return
		}
		for _, evt := range r.answer(reader, f) {
			select {
			case ch <- evt:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}
