// Package watch follows a read as it changes: it keeps one live
// subscription per relay open (reconnected with backoff when a relay drops),
// and on every new event runs the read again through a resolver given as a
// value, emitting the answer only when its fingerprint differs from the last
// one emitted. Relays, the resolver, the output and the clock's waits are
// passed in; the package keeps no globals.
//
// Bounds (relays and their events are untrusted input):
//   - at most MaxRelays relays are followed, in the order the answer names
//     them;
//   - each relay's subscription is one REQ under relaypool.MaxREQBytes;
//   - ids already seen are remembered up to MaxSeen (oldest forgotten first),
//     so a repeated event costs an id hash, not a signature check nor a
//     re-read;
//   - at most MaxLive recent events, none over MaxLiveBytes and MaxLiveTotal
//     bytes together, are kept to be handed to the resolver (oldest dropped
//     first); a bigger or dropped event still causes its re-read;
//   - events that arrive while a re-read runs are not queued: they set one
//     flag, and one more re-read follows, so a relay flooding events costs at
//     most one read at a time, never a backlog.
package watch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/relaypool/verified"
)

// Bounds; see the package documentation.
const (
	MaxRelays    = 64
	MaxSeen      = 4096
	MaxLive      = 256
	MaxLiveBytes = 64 << 10
	MaxLiveTotal = 4 << 20
)

// Default reconnect backoff: the first retry after MinBackoff, doubling up
// to MaxBackoff; a subscription the relay answered (EOSE) resets it.
const (
	MinBackoff = 500 * time.Millisecond
	MaxBackoff = 30 * time.Second
)

// Follow is what the answer says to subscribe to for its next change: the
// same filters on every relay. Filters are sent with "limit": 0 (NIP-01: no
// stored events, only new ones); the resolver has read the stored ones.
type Follow struct {
	Relays  []string
	Filters []nostr.Filter
}

// Answer is one resolution of the watched read.
type Answer struct {
	// Fingerprint is compared with the last emitted answer's: equal means
	// the same answer, and nothing is emitted.
	Fingerprint string
	// Follow is what to subscribe to next; relays and filters may change
	// from one answer to the next (a repository whose announcement names a
	// new relay).
	Follow Follow
	// Value is what Emit gets.
	Value any
}

// Options are Run's dependencies.
type Options struct {
	// Resolve runs the read; live are the recent events the subscriptions
	// delivered (newest last, at most MaxLive), which a resolver may add to
	// what it reads (a relay may answer a repeated filter from a cache,
	// without an event it has just delivered live).
	Resolve func(ctx context.Context, live []*nostr.Event) (Answer, error)
	// Emit prints an answer: the first, and each whose fingerprint changed.
	// An error from it ends Run.
	Emit func(Answer) error
	// Warn says what happens to the relays (dropped, reconnecting,
	// reconnected) and re-reads that failed; the answer stays as last
	// emitted.
	Warn func(string)
	// Follow keeps one subscription open until ctx ends or the relay drops
	// it: relaypool.Pool.Follow.
	Subscribe func(ctx context.Context, url string, filters []nostr.Filter, opts relaypool.FollowOptions) error
	// Wait sleeps d or until ctx ends (a test may count or shorten waits);
	// nil uses a timer.
	Wait func(ctx context.Context, d time.Duration)
	// MinBackoff and MaxBackoff bound the reconnect delays (defaults above).
	MinBackoff, MaxBackoff time.Duration
	// Resolved, when set, is called after every resolution with whether it
	// was emitted and how many live events it was handed (tests observe the
	// re-reads through it).
	Resolved func(emitted bool, live int)
}

// Run resolves once and emits the answer (an error there is returned as
// is, before anything is followed), then follows the answer's relays until
// ctx ends, when it returns nil: an interrupt is the way out of a watch.
func Run(ctx context.Context, o Options) error {
	if o.MinBackoff <= 0 {
		o.MinBackoff = MinBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(MaxBackoff, o.MinBackoff)
	}
	if o.Wait == nil {
		o.Wait = sleep
	}
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	w := &watcher{o: o, seen: newSeenSet(MaxSeen), kick: make(chan struct{}, 1), followers: map[string]*follower{}}
	ans, err := o.Resolve(ctx, nil)
	if err != nil {
		return err
	}
	if err := o.Emit(ans); err != nil {
		return err
	}
	if o.Resolved != nil {
		o.Resolved(true, 0)
	}
	last := ans.Fingerprint
	fctx, stop := context.WithCancel(ctx)
	defer func() {
		stop()
		w.wg.Wait()
	}()
	w.follow(fctx, ans.Follow)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.kick:
		}
		live := w.liveEvents()
		ans, err := o.Resolve(ctx, live)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			o.Warn("re-reading after a change failed (the last answer stands): " + err.Error())
			if o.Resolved != nil {
				o.Resolved(false, len(live))
			}
			continue
		}
		emitted := ans.Fingerprint != last
		if emitted {
			if err := o.Emit(ans); err != nil {
				return err
			}
			last = ans.Fingerprint
		}
		w.follow(fctx, ans.Follow)
		if o.Resolved != nil {
			o.Resolved(emitted, len(live))
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

type watcher struct {
	o    Options
	kick chan struct{} // one pending re-read, however many events asked

	mu        sync.Mutex
	seen      *seenSet
	live      []*nostr.Event
	liveBytes int

	wg        sync.WaitGroup
	followers map[string]*follower // by relay URL; only Run's goroutine
	filters   string               // the filters the followers run, as JSON
}

type follower struct{ stop context.CancelFunc }

// changed asks for one re-read.
func (w *watcher) changed() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

func (w *watcher) fresh(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen.add(id)
}

func (w *watcher) event(v verified.Event) {
	e := v.Event()
	if n := size(e); e != nil && n <= MaxLiveBytes {
		w.mu.Lock()
		w.live = append(w.live, e)
		w.liveBytes += n
		drop := 0
		for len(w.live)-drop > MaxLive || w.liveBytes > MaxLiveTotal {
			w.liveBytes -= size(w.live[drop])
			drop++
		}
		w.live = slices.Delete(w.live, 0, drop)
		w.mu.Unlock()
	}
	w.changed()
}

func (w *watcher) liveEvents() []*nostr.Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.live)
}

func size(e *nostr.Event) int {
	if e == nil {
		return 0
	}
	n := len(e.Content) + 64*4
	for _, t := range e.Tags {
		for _, v := range t {
			n += len(v) + 4
		}
	}
	return n
}

// follow makes the followers match f: relays no longer named stop, new ones
// start, and all restart when the filters changed.
func (w *watcher) follow(ctx context.Context, f Follow) {
	relays := relaypool.NormalizeRelays(f.Relays)
	if len(relays) > MaxRelays {
		relays = relays[:MaxRelays]
	}
	filters := make([]nostr.Filter, len(f.Filters))
	for i, flt := range f.Filters {
		flt.Limit, flt.LimitZero = 0, true
		filters[i] = flt
	}
	key := filtersKey(filters)
	if key != w.filters {
		for url, fl := range w.followers {
			fl.stop()
			delete(w.followers, url)
		}
		w.filters = key
	}
	for url, fl := range w.followers {
		if !slices.Contains(relays, url) {
			fl.stop()
			delete(w.followers, url)
		}
	}
	if len(filters) == 0 {
		return
	}
	for _, url := range relays {
		if w.followers[url] != nil {
			continue
		}
		fctx, stop := context.WithCancel(ctx)
		w.followers[url] = &follower{stop: stop}
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			w.keepFollowing(fctx, url, filters)
		}()
	}
}

func filtersKey(filters []nostr.Filter) string {
	out := ""
	for _, f := range filters {
		raw, _ := f.MarshalJSON()
		out += string(raw) + "\n"
	}
	return out
}

// keepFollowing holds one subscription to url open until ctx ends,
// reconnecting with backoff when the relay drops it, and asks for a re-read
// after every reconnection (what happened while it was away was not
// delivered).
func (w *watcher) keepFollowing(ctx context.Context, url string, filters []nostr.Filter) {
	delay := w.o.MinBackoff
	everOpened, failing := false, false
	for {
		opened := false
		err := w.o.Subscribe(ctx, url, filters, relaypool.FollowOptions{
			Fresh: w.fresh,
			Event: w.event,
			Open: func() {
				opened, delay = true, w.o.MinBackoff
				if failing {
					if everOpened {
						w.o.Warn(fmt.Sprintf("relay %s: reconnected, following again", url))
					} else {
						w.o.Warn(fmt.Sprintf("relay %s: connected, following", url))
					}
				}
				everOpened, failing = true, false
				// What changed between the last read and this
				// subscription (or while the relay was away) was not
				// delivered: read again once.
				w.changed()
			},
		})
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			err = errors.New("the subscription ended")
		}
		switch {
		case opened:
			w.o.Warn(fmt.Sprintf("relay %s dropped the subscription (%v); reconnecting in %s", url, err, delay))
		case !everOpened && !failing:
			w.o.Warn(fmt.Sprintf("relay %s: cannot follow it (%v); trying again in %s", url, err, delay))
		default:
			w.o.Warn(fmt.Sprintf("relay %s: reconnecting failed (%v); next try in %s", url, err, delay))
		}
		failing = true
		w.o.Wait(ctx, delay)
		if ctx.Err() != nil {
			return
		}
		delay = min(delay*2, w.o.MaxBackoff)
	}
}
