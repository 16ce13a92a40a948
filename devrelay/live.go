package devrelay

import (
	"context"
	"sync"

	"github.com/fiatjaf/khatru"
	"github.com/nbd-wtf/go-nostr"
)

// liveSub is one REQ that stays open for live events after EOSE.
type liveSub struct {
	ws      *khatru.WebSocket
	id      string
	filters []nostr.Filter
}

// liveTable is our own listener table. khatru's is private and delivers the
// same event to everyone; we need per-reader authority views and eviction.
// Entries are keyed by the REQ's context, which khatru cancels on CLOSE, on
// a rejected filter and on disconnect.
type liveTable struct {
	mu    sync.Mutex
	byReq map[context.Context]*liveSub
}

func newLiveTable() *liveTable { return &liveTable{byReq: map[context.Context]*liveSub{}} }

// add records one filter of the REQ running under ctx and reports whether
// this is the REQ's first filter (a new REQ).
func (t *liveTable) add(ctx context.Context, ws *khatru.WebSocket, id string, f nostr.Filter) (newREQ bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sub := t.byReq[ctx]
	if sub == nil {
		newREQ = true
		// NIP-01: a REQ reusing an open subscription id replaces it.
		for k, s := range t.byReq {
			if s.ws == ws && s.id == id {
				delete(t.byReq, k)
			}
		}
		sub = &liveSub{ws: ws, id: id}
		t.byReq[ctx] = sub
		go func() {
			<-ctx.Done()
			t.mu.Lock()
			if t.byReq[ctx] == sub {
				delete(t.byReq, ctx)
			}
			t.mu.Unlock()
		}()
	}
	sub.filters = append(sub.filters, f)
	return newREQ
}

func (t *liveTable) snapshot() []liveSub {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]liveSub, 0, len(t.byReq))
	for _, s := range t.byReq {
		out = append(out, liveSub{ws: s.ws, id: s.id, filters: append([]nostr.Filter(nil), s.filters...)})
	}
	return out
}

// remove drops every live subscription of connections authenticated as pubkey.
func (t *liveTable) remove(pubkey string) []liveSub {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []liveSub
	for k, s := range t.byReq {
		if s.ws.AuthedPublicKey == pubkey {
			out = append(out, *s)
			delete(t.byReq, k)
		}
	}
	return out
}

// fanout delivers a newly stored event to every matching live subscription,
// through the authorities' view for that subscription's reader.
func (r *Relay) fanout(evt *nostr.Event) {
	if r.silent.Load() {
		return
	}
	for _, s := range r.live.snapshot() {
		reader := s.ws.AuthedPublicKey
		if r.opts.RequireAuth && reader == "" {
			continue
		}
		if !nostr.Filters(s.filters).Match(evt) {
			continue
		}
		if v := r.view(reader, evt); v != nil && nostr.Filters(s.filters).Match(v) {
			id := s.id
			_ = s.ws.WriteJSON(nostr.EventEnvelope{SubscriptionID: &id, Event: *v})
		}
	}
}

// evict implements Env.Evict: pubkey's live subscriptions end with CLOSED.
func (r *Relay) evict(pubkey string) {
	for _, s := range r.live.remove(pubkey) {
		_ = s.ws.WriteJSON(nostr.ClosedEnvelope{SubscriptionID: s.id, Reason: "restricted: access revoked"})
	}
}

// view passes evt through every authority for reader; nil withholds it.
func (r *Relay) view(reader string, evt *nostr.Event) *nostr.Event {
	if len(r.opts.Authorities) == 0 {
		return evt
	}
	env := r.env()
	for _, a := range r.opts.Authorities {
		if evt = a.View(env, reader, evt); evt == nil {
			return nil
		}
	}
	return evt
}
