package devrelay

import (
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// TB is the part of testing.TB that StartN needs; *testing.T and *testing.B
// satisfy it. Declared here so the production binary does not link "testing".
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// StartN starts n relays with opts (each with its own random key unless
// opts.SecretKey is set) and closes them when the test ends.
func StartN(t TB, n int, opts Options) []*Relay {
	t.Helper()
	relays := make([]*Relay, 0, n)
	for i := 0; i < n; i++ {
		r, err := New(opts)
		if err != nil {
			t.Fatalf("devrelay.New: %v", err)
		}
		if err := r.Start(); err != nil {
			t.Fatalf("devrelay.Start: %v", err)
		}
		t.Cleanup(r.Close)
		relays = append(relays, r)
	}
	return relays
}

// URLs lists the relays' websocket URLs.
func URLs(relays []*Relay) []string {
	out := make([]string, len(relays))
	for i, r := range relays {
		out[i] = r.URL()
	}
	return out
}

// SetSlow delays every later REQ's EOSE by d (0 turns it off).
func (r *Relay) SetSlow(d time.Duration) { r.slow.Store(int64(d)) }

// SetSilent makes the relay accept REQs and never answer them (no events, no
// EOSE, no CLOSED), like a relay that hangs.
func (r *Relay) SetSilent(silent bool) { r.silent.Store(silent) }

// Stored returns what the relay actually stores that matches f (no authority
// views, no limit unless f sets one), newest first.
func (r *Relay) Stored(f nostr.Filter) []*nostr.Event { return r.store.query(f) }

// OpenSubscriptions is the number of REQs still open (not CLOSEd by their
// client, not refused, connection still up).
func (r *Relay) OpenSubscriptions() int { return len(r.live.snapshot()) }

// ReqCount is the number of REQ messages the relay has received.
func (r *Relay) ReqCount() int { return int(r.reqs.Load()) }

// Requests returns the filters of every REQ the relay has received, one
// entry per REQ in the order they arrived (entry i is REQ number i+1, as
// Misbehaviour.DelayREQ counts them), so a test can assert not only how many
// round trips a command cost but what each asked.
func (r *Relay) Requests() [][]nostr.Filter {
	n := r.ReqCount()
	r.reqLogMu.Lock()
	defer r.reqLogMu.Unlock()
	out := make([][]nostr.Filter, n)
	for i := range out {
		out[i] = append([]nostr.Filter(nil), r.reqLog[i+1]...)
	}
	return out
}

// EventCount is the number of EVENT messages the relay has received with a
// valid id and signature, accepted or refused: what clients published,
// however it was answered. khatru answers a bad id or signature (and a kind
// 5 deletion it blocks) before any hook runs, so those are not counted, nor
// are the events an authority emits or Inject stores.
func (r *Relay) EventCount() int { return int(r.events.Load()) }

// Inject stores evt exactly as given, bypassing id, signature, replacement
// and deletion rules: a misbehaving relay serving forged or stale events.
func (r *Relay) Inject(evt *nostr.Event) { r.store.inject(evt) }

// SetExtra makes the relay misbehave: every REQ result also carries evts,
// whatever the filters asked (nil turns it off).
func (r *Relay) SetExtra(evts ...*nostr.Event) {
	r.extraMu.Lock()
	r.extra = evts
	r.extraMu.Unlock()
}

func (r *Relay) extraEvents() []*nostr.Event {
	r.extraMu.Lock()
	defer r.extraMu.Unlock()
	return r.extra
}
