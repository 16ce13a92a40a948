package watch_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/relaypool/verified"
	"github.com/roster-cli/roster/watch"
	"github.com/roster-cli/roster/workspace/testkeys"
)

func key(name string) string { return testkeys.Named("watch-test-", name) }

func pub(name string) string {
	pk, _ := nostr.GetPublicKey(key(name))
	return pk
}

// topic is what the test resolver reads: kind 30617 events under d "w".
var topic = nostr.Filter{Kinds: []int{30617}, Tags: nostr.TagMap{"d": {"w"}}}

func note(t testing.TB, name string, at int64, content string) *nostr.Event {
	t.Helper()
	return testkeys.Event(t, key(name), 30617, at, content, nostr.Tag{"d", "w"})
}

// scene runs watch.Run against relays with a resolver whose answer is the
// content of owner's latest event under the topic: a stranger's event
// there is unrelated (it is read, and changes nothing).
type scene struct {
	t      *testing.T
	relays []*devrelay.Relay
	cancel context.CancelFunc
	done   chan error

	mu       sync.Mutex
	emitted  []string
	resolves int
	warns    []string
	waits    []time.Duration
	lives    []int // how many live events each re-read was handed
}

func start(t *testing.T, relays []*devrelay.Relay, opts watch.Options) *scene {
	t.Helper()
	s := &scene{t: t, relays: relays, done: make(chan error, 1)}
	urls := devrelay.URLs(relays)
	pool := relaypool.New(relaypool.Options{Timeout: 2 * time.Second})
	t.Cleanup(pool.Close)
	opts.Resolve = func(ctx context.Context, live []*nostr.Event) (watch.Answer, error) {
		res := pool.Fetch(ctx, urls, topic)
		s.mu.Lock()
		s.lives = append(s.lives, len(live))
		s.mu.Unlock()
		latest := ""
		var at nostr.Timestamp
		for _, e := range append(res.Events, live...) {
			if e.PubKey == pub("owner") && e.CreatedAt >= at {
				latest, at = e.Content, e.CreatedAt
			}
		}
		if !res.Complete && latest == "" {
			return watch.Answer{}, errors.New("no relay answered")
		}
		return watch.Answer{Fingerprint: latest, Value: latest, Follow: watch.Follow{Relays: urls, Filters: []nostr.Filter{topic}}}, nil
	}
	opts.Emit = func(a watch.Answer) error {
		s.mu.Lock()
		s.emitted = append(s.emitted, a.Value.(string))
		s.mu.Unlock()
		return nil
	}
	opts.Warn = func(msg string) {
		s.mu.Lock()
		s.warns = append(s.warns, msg)
		s.mu.Unlock()
	}
	opts.Resolved = func(bool, int) {
		s.mu.Lock()
		s.resolves++
		s.mu.Unlock()
	}
	if opts.Wait != nil {
		wait := opts.Wait
		opts.Wait = func(ctx context.Context, d time.Duration) {
			s.mu.Lock()
			s.waits = append(s.waits, d)
			s.mu.Unlock()
			wait(ctx, d)
		}
	}
	opts.Subscribe = pool.Follow
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() { s.done <- watch.Run(ctx, opts) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			t.Error("watch.Run did not return after its context ended")
		}
	})
	return s
}

func (s *scene) snapshot() (emitted []string, resolves int, warns []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.emitted...), s.resolves, append([]string(nil), s.warns...)
}

func (s *scene) eventually(within time.Duration, what string, cond func(emitted []string, resolves int, warns []string) bool) {
	s.t.Helper()
	deadline := time.Now().Add(within)
	for {
		e, r, w := s.snapshot()
		if cond(e, r, w) {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out after %s waiting for %s (emitted %q, %d resolutions, warnings %q)", within, what, e, r, w)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// settled waits until every relay holds the live subscription and the
// re-read its opening asks for has run; it returns the resolution count.
func (s *scene) settled() int {
	s.t.Helper()
	s.eventually(5*time.Second, "the subscriptions to open", func(_ []string, r int, _ []string) bool {
		for _, rl := range s.relays {
			if rl.OpenSubscriptions() < 1 {
				return false
			}
		}
		return r >= 2
	})
	_, r, _ := s.snapshot()
	return r
}

func publish(t *testing.T, r *devrelay.Relay, evt *nostr.Event) {
	t.Helper()
	if err := r.Publish(evt); err != nil {
		t.Fatalf("publish: %v", err)
	}
}

func warned(warns []string, part string) bool {
	for _, w := range warns {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}

// Rule: a watch emits when the resolved answer changes, not on every
// event: an event the read takes in but that leaves the answer as it was
// emits nothing, and a change is emitted within a second.
func TestAWatchEmitsOnlyWhenTheAnswerChanges(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{})[0]
	now := time.Now().Unix()
	publish(t, r, note(t, "owner", now-10, "v1"))
	s := start(t, []*devrelay.Relay{r}, watch.Options{})
	s.eventually(5*time.Second, "the first answer", func(e []string, _ int, _ []string) bool { return len(e) == 1 })
	before := s.settled()

	publish(t, r, note(t, "stranger", now, "spam"))
	s.eventually(5*time.Second, "the re-read after the unrelated event", func(_ []string, n int, _ []string) bool { return n > before })
	if e, _, _ := s.snapshot(); len(e) != 1 {
		t.Fatalf("an event that left the answer unchanged was emitted: %q", e)
	}

	sent := time.Now()
	publish(t, r, note(t, "owner", now, "v2"))
	s.eventually(time.Second, "the changed answer within a second", func(e []string, _ int, _ []string) bool { return len(e) == 2 })
	if e, _, _ := s.snapshot(); e[1] != "v2" {
		t.Fatalf("emitted %q, want v1 then v2", e)
	}
	t.Logf("change emitted %s after publishing", time.Since(sent).Round(time.Millisecond))
}

// Rule: one event delivered by two relays (and repeated) is one re-read:
// events are deduplicated by id before anything else is done with them.
func TestOneEventFromTwoRelaysIsOneReRead(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	now := time.Now().Unix()
	for _, r := range relays {
		publish(t, r, note(t, "owner", now-10, "v1"))
	}
	s := start(t, relays, watch.Options{})
	s.eventually(5*time.Second, "the first answer", func(e []string, _ int, _ []string) bool { return len(e) == 1 })
	before := s.settled()

	evt := note(t, "owner", now, "v2")
	for _, r := range relays {
		publish(t, r, evt)
	}
	s.eventually(2*time.Second, "the change", func(e []string, _ int, _ []string) bool { return len(e) == 2 })
	// A later, different event is the marker: once its re-read has run,
	// any re-read the second copy caused would have run before it.
	marker := note(t, "stranger", now, "marker")
	publish(t, relays[0], marker)
	s.eventually(2*time.Second, "the marker's re-read", func(_ []string, n int, _ []string) bool { return n >= before+2 })
	if _, n, _ := s.snapshot(); n != before+2 {
		t.Fatalf("%d re-reads for one event on two relays and one marker, want 2", n-before)
	}
}

// Rule: a relay that drops is reconnected with backoff (delays doubling
// from the minimum, never above the maximum), the drop and the
// reconnection are said, and what changed while it was away is read once
// it is back.
func TestADroppedRelayIsReconnectedWithBackoffAndReadAgain(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{})[0]
	now := time.Now().Unix()
	publish(t, r, note(t, "owner", now-10, "v1"))
	s := start(t, []*devrelay.Relay{r}, watch.Options{
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 40 * time.Millisecond,
		Wait: func(ctx context.Context, d time.Duration) {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
			}
		},
	})
	s.eventually(5*time.Second, "the first answer", func(e []string, _ int, _ []string) bool { return len(e) == 1 })
	s.settled()

	r.Stop()
	// Written while the relay is off the network: no subscription can
	// deliver it; the read after reconnecting must find it.
	publish(t, r, note(t, "owner", now, "v2"))
	s.eventually(5*time.Second, "several failed reconnections", func(_ []string, _ int, w []string) bool {
		n := 0
		for _, m := range w {
			if strings.Contains(m, "reconnecting failed") {
				n++
			}
		}
		return warned(w, "dropped the subscription") && n >= 3
	})
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	s.eventually(5*time.Second, "the reconnection and the change made meanwhile", func(e []string, _ int, w []string) bool {
		return warned(w, "reconnected") && len(e) == 2 && e[1] == "v2"
	})
	s.mu.Lock()
	waits := append([]time.Duration(nil), s.waits...)
	s.mu.Unlock()
	if len(waits) < 4 || waits[0] != 10*time.Millisecond || waits[1] != 20*time.Millisecond || waits[2] != 40*time.Millisecond || waits[3] != 40*time.Millisecond {
		t.Fatalf("backoff delays %v, want 10ms, 20ms, 40ms, 40ms, ...", waits)
	}
}

// Rule: a relay that breaks the connection under a live subscription
// (devrelay.DropConnections: the TCP connection goes, no CLOSE) is
// reconnected, and later changes are emitted again.
func TestABrokenConnectionIsFollowedAgain(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{})[0]
	now := time.Now().Unix()
	publish(t, r, note(t, "owner", now-10, "v1"))
	s := start(t, []*devrelay.Relay{r}, watch.Options{MinBackoff: 10 * time.Millisecond})
	s.eventually(5*time.Second, "the first answer", func(e []string, _ int, _ []string) bool { return len(e) == 1 })
	s.settled()
	if r.DropConnections() == 0 {
		t.Fatal("no connection to drop")
	}
	s.eventually(5*time.Second, "the reconnection", func(_ []string, _ int, w []string) bool {
		return warned(w, "dropped the subscription") && warned(w, "reconnected")
	})
	s.eventually(5*time.Second, "the subscription to be open again", func([]string, int, []string) bool { return r.OpenSubscriptions() == 1 })
	publish(t, r, note(t, "owner", now, "v2"))
	s.eventually(time.Second, "the change after the reconnection", func(e []string, _ int, _ []string) bool {
		return len(e) == 2 && e[1] == "v2"
	})
}

// Rule: ending the watch (an interrupt cancels its context) is a clean
// exit: Run returns nil and closes its subscriptions.
func TestEndingAWatchReturnsNilAndClosesItsSubscriptions(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{})[0]
	publish(t, r, note(t, "owner", time.Now().Unix(), "v1"))
	s := start(t, []*devrelay.Relay{r}, watch.Options{})
	s.settled()
	s.cancel()
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("Run after its context ended: %v, want nil", err)
		}
		s.done <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
	s.eventually(5*time.Second, "the relay to see the subscription closed", func([]string, int, []string) bool { return r.OpenSubscriptions() == 0 })
}

// Rule: a first read that fails is the command's error, returned before
// anything is followed.
func TestAFirstReadThatFailsIsReturned(t *testing.T) {
	want := errors.New("not found")
	followed := false
	err := watch.Run(context.Background(), watch.Options{
		Resolve: func(context.Context, []*nostr.Event) (watch.Answer, error) { return watch.Answer{}, want },
		Emit:    func(watch.Answer) error { t.Error("emitted after a failed read"); return nil },
		Subscribe: func(context.Context, string, []nostr.Filter, relaypool.FollowOptions) error {
			followed = true
			return nil
		},
	})
	if !errors.Is(err, want) || followed {
		t.Fatalf("Run = %v (followed %v), want the read's error and nothing followed", err, followed)
	}
}

// Rule: the live events handed to the resolver are bounded (MaxLive, the
// newest kept) and repeated ids are passed over before their signature is
// checked.
func TestLiveEventsAreBoundedAndDeduplicated(t *testing.T) {
	evts := make([]*nostr.Event, watch.MaxLive+10)
	for i := range evts {
		evts[i] = note(t, "stranger", int64(1000+i), "x")
	}
	var mu sync.Mutex
	var lives [][]*nostr.Event
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	checked := 0
	err := make(chan error, 1)
	go func() {
		err <- watch.Run(ctx, watch.Options{
			Resolve: func(_ context.Context, live []*nostr.Event) (watch.Answer, error) {
				mu.Lock()
				lives = append(lives, live)
				mu.Unlock()
				return watch.Answer{Fingerprint: "same", Follow: watch.Follow{Relays: []string{"ws://127.0.0.1:1"}, Filters: []nostr.Filter{topic}}}, nil
			},
			Emit: func(watch.Answer) error { return nil },
			Subscribe: func(ctx context.Context, _ string, _ []nostr.Filter, o relaypool.FollowOptions) error {
				for _, e := range append(evts, evts...) {
					if o.Fresh(e.ID) {
						checked++
						v, _ := verifiedOf(e)
						o.Event(v)
					}
				}
				o.Open()
				<-ctx.Done()
				return nil
			},
		})
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n, whole := 0, false
		if len(lives) > 0 {
			last := lives[len(lives)-1]
			n = len(last)
			whole = n > 0 && last[n-1].ID == evts[len(evts)-1].ID
		}
		mu.Unlock()
		if whole {
			if n != watch.MaxLive {
				t.Fatalf("the resolver was handed %d live events, want at most %d", n, watch.MaxLive)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the resolver never got %d live events (last: %d)", watch.MaxLive, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if e := <-err; e != nil {
		t.Fatal(e)
	}
	if checked != len(evts) {
		t.Fatalf("%d events passed the id check for %d distinct ids", checked, len(evts))
	}
	mu.Lock()
	last := lives[len(lives)-1]
	mu.Unlock()
	if last[0].ID != evts[10].ID || last[len(last)-1].ID != evts[len(evts)-1].ID {
		t.Fatal("the live events kept are not the newest MaxLive")
	}
}

func verifiedOf(e *nostr.Event) (verified.Event, bool) { return verified.Check(e) }

// Rule: the live events kept for the resolver are bounded in bytes too
// (MaxLiveTotal), and an event over MaxLiveBytes is not kept at all.
func TestLiveEventsAreBoundedInBytes(t *testing.T) {
	big := strings.Repeat("x", 60<<10)
	evts := make([]*nostr.Event, 100)
	for i := range evts {
		evts[i] = note(t, "stranger", int64(1000+i), big)
	}
	huge := note(t, "stranger", 5000, strings.Repeat("y", watch.MaxLiveBytes+1))
	evts = append(evts, huge)
	var mu sync.Mutex
	var last []*nostr.Event
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- watch.Run(ctx, watch.Options{
			Resolve: func(_ context.Context, live []*nostr.Event) (watch.Answer, error) {
				mu.Lock()
				last = live
				mu.Unlock()
				return watch.Answer{Fingerprint: "same", Follow: watch.Follow{Relays: []string{"ws://127.0.0.1:1"}, Filters: []nostr.Filter{topic}}}, nil
			},
			Emit: func(watch.Answer) error { return nil },
			Subscribe: func(ctx context.Context, _ string, _ []nostr.Filter, o relaypool.FollowOptions) error {
				o.Open()
				for _, e := range evts {
					if o.Fresh(e.ID) {
						v, _ := verifiedOf(e)
						o.Event(v)
					}
				}
				<-ctx.Done()
				return nil
			},
		})
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		ok := len(last) > 0 && last[len(last)-1].ID == evts[99].ID
		mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the resolver never got the newest kept event")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, e := range last {
		total += len(e.Content)
		if e.ID == huge.ID {
			t.Fatal("an event over MaxLiveBytes was kept")
		}
	}
	if total > watch.MaxLiveTotal || len(last) == 0 || len(last) >= 100 {
		t.Fatalf("%d live events of %d bytes kept, want at most %d bytes", len(last), total, watch.MaxLiveTotal)
	}
}
