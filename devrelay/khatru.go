package devrelay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fiatjaf/khatru"
	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
)

// newKhatru wires khatru's hooks to the relay. khatru keeps the websocket
// plumbing and NIP-42 challenge handling; storage rules (store.go) and every
// delivery surface (live.go, query below) are ours, so authority views apply
// everywhere and khatru's own broadcast is switched off.
func (r *Relay) newKhatru() *khatru.Relay {
	kr := khatru.NewRelay()
	kr.Log = discardLog
	kr.Info.Name = "roster devrelay"
	kr.Info.Description = "development relay for roster"
	kr.Info.PubKey = r.self
	kr.Info.Software = "https://github.com/roster-cli/roster"
	kr.Info.SupportedNIPs = []any{1, 9, 11, 42}
	if r.opts.RequireAuth {
		kr.Info.Limitation = &nip11Limitation
	}
	// Every connection gets a NIP-42 challenge up front, so clients can
	// authenticate before their first request (authorities need to know
	// who reads even when authentication is optional).
	kr.OnConnect = append(kr.OnConnect, khatru.RequestAuth)
	// khatru runs OnDisconnect once per connection goroutine (twice), so
	// count distinct connections.
	kr.OnConnect = append(kr.OnConnect, func(ctx context.Context) {
		if _, dup := r.open.LoadOrStore(khatru.GetConnection(ctx), true); !dup {
			r.conns.Add(1)
		}
	})
	kr.OnDisconnect = append(kr.OnDisconnect, func(ctx context.Context) {
		if _, was := r.open.LoadAndDelete(khatru.GetConnection(ctx)); was {
			r.conns.Add(-1)
		}
	})

	kr.RejectFilter = append(kr.RejectFilter, r.rejectFilter)
	kr.OverwriteFilter = append(kr.OverwriteFilter, r.registerFilter)
	kr.QueryEvents = append(kr.QueryEvents, r.queryEvents)

	kr.RejectEvent = append(kr.RejectEvent, r.rejectEvent)
	kr.StoreEvent = append(kr.StoreEvent, r.storeEvent)
	kr.ReplaceEvent = append(kr.ReplaceEvent, r.storeEvent)
	kr.OnEphemeralEvent = append(kr.OnEphemeralEvent, func(_ context.Context, evt *nostr.Event) {
		if _, governed := r.authority[evt.Kind]; !governed {
			r.fanout(evt)
		}
	})
	kr.PreventBroadcast = append(kr.PreventBroadcast, func(*khatru.WebSocket, *nostr.Event) bool { return true })
	return kr
}

const authRequired = "auth-required: this relay only serves authenticated clients (NIP-42)"

func (r *Relay) rejectFilter(ctx context.Context, f nostr.Filter) (bool, string) {
	if r.opts.RequireAuth && khatru.GetAuthed(ctx) == "" {
		return true, r.hostileReason(authRequired)
	}
	if refuse := r.misbehaviour().RefuseREQ; refuse != nil {
		if reason := refuse(f); reason != "" {
			return true, r.hostileReason(reason)
		}
	}
	return false, ""
}

// registerFilter sees every filter of every REQ (before any rejection) with the
// REQ's own context: it counts REQs and records live subscriptions.
func (r *Relay) registerFilter(ctx context.Context, f *nostr.Filter) {
	id, ok := subscriptionID(ctx)
	ws := khatru.GetConnection(ctx)
	if !ok || ws == nil {
		return
	}
	if r.live.add(ctx, ws, id, *f) {
		n := int(r.reqs.Add(1))
		r.reqNum.set(ctx, n)
		r.logFilter(n, *f)
		m := r.misbehaviour()
		for i := 0; i < m.FloodNotices; i++ {
			_ = ws.WriteJSON(nostr.NoticeEnvelope(r.hostileReason(fmt.Sprintf("notice: flood %d of %d", i+1, m.FloodNotices))))
		}
		return
	}
	r.logFilter(r.reqNum.get(ctx), *f)
}

// logFilter records f as one of the filters of the relay's n-th REQ.
func (r *Relay) logFilter(n int, f nostr.Filter) {
	if n == 0 {
		return
	}
	r.reqLogMu.Lock()
	defer r.reqLogMu.Unlock()
	if r.reqLog == nil {
		r.reqLog = map[int][]nostr.Filter{}
	}
	r.reqLog[n] = append(r.reqLog[n], f)
}

// queryEvents answers REQ filters. khatru also calls it for its own
// (mis-keyed) deletion checks and for deletion targets; those get nothing,
// because store.save does both jobs correctly.
func (r *Relay) queryEvents(ctx context.Context, f nostr.Filter) (chan *nostr.Event, error) {
	if _, isREQ := subscriptionID(ctx); !isREQ || khatru.IsInternalCall(ctx) {
		ch := make(chan *nostr.Event)
		close(ch)
		return ch, nil
	}
	if r.silent.Load() {
		// Never answer: no events and no EOSE while the connection lives. The
		// channel is returned at once so khatru registers the REQ and a
		// CLOSE from the client still ends it.
		ws := khatru.GetConnection(ctx)
		ch := make(chan *nostr.Event)
		go func() {
			select {
			case <-ws.Context.Done():
			case <-r.closed:
			}
			close(ch)
		}()
		return ch, nil
	}
	reader := khatru.GetAuthed(ctx)
	if d := r.delays.take(f); d > 0 {
		return r.delayed(ctx, reader, f, d), nil
	}
	m := r.misbehaviour()
	found := r.misbehavingAnswer(m, reader, f)
	if m.BreakAfter > 0 {
		return r.deliverBroken(ctx, m, found), nil
	}
	var hold time.Duration
	if m.DelayREQ != nil {
		hold = m.DelayREQ(r.reqNum.get(ctx), f)
	}
	var junk []*nostr.Event
	for i := 0; i < m.JunkEvents; i++ {
		junk = append(junk, r.junk(f, i))
	}
	found = append(junk, found...)
	if hold > 0 {
		return r.holdBack(ctx, hold, found), nil
	}
	ch := make(chan *nostr.Event, len(found))
	for _, evt := range found {
		ch <- evt
	}
	delay := time.Duration(r.slow.Load())
	if delay <= 0 {
		close(ch)
		return ch, nil
	}
	go func() {
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		case <-r.closed:
		}
		close(ch)
	}()
	return ch, nil
}

// holdBack sends found, and so lets EOSE go, only after d.
func (r *Relay) holdBack(ctx context.Context, d time.Duration, found []*nostr.Event) chan *nostr.Event {
	ch := make(chan *nostr.Event, len(found))
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
		for _, evt := range found {
			ch <- evt
		}
	}()
	return ch
}

// answer is what reader receives for f: stored events through every
// authority's view, dropping views that no longer match f (a reader-specific
// copy has its own id), plus, for lookups by id, the reader-specific events
// only an authority can produce.
func (r *Relay) answer(reader string, f nostr.Filter) []*nostr.Event {
	var out []*nostr.Event
	seen := map[string]bool{}
	add := func(v *nostr.Event) {
		if v != nil && !seen[v.ID] && f.Matches(v) {
			seen[v.ID] = true
			out = append(out, v)
		}
	}
	for _, evt := range r.store.query(f) {
		add(r.view(reader, evt))
	}
	// SetExtra's events misbehave on purpose: they go out whatever f says.
	for _, evt := range r.extraEvents() {
		if v := r.view(reader, evt); v != nil {
			out = append(out, v)
		}
	}
	if len(f.IDs) == 0 {
		return out
	}
	env := r.env()
	for _, a := range r.opts.Authorities {
		l, ok := a.(IDLookup)
		if !ok {
			continue
		}
		for _, id := range f.IDs {
			if !seen[id] {
				add(l.LookupID(env, reader, id))
			}
		}
	}
	return out
}

// subscriptionID returns the REQ id khatru put in ctx. khatru's accessor
// panics when there is none (EVENT and internal contexts), hence the recover.
func subscriptionID(ctx context.Context) (id string, ok bool) {
	defer func() {
		if recover() != nil {
			id, ok = "", false
		}
	}()
	return khatru.GetSubscriptionID(ctx), true
}

func decodeNsec(s string) (string, error) {
	prefix, v, err := nip19.Decode(s)
	if err != nil || prefix != "nsec" {
		return "", errors.New("relay secret key: not a valid nsec")
	}
	return v.(string), nil
}
