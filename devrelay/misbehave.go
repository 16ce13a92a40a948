package devrelay

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fiatjaf/khatru"
	"github.com/nbd-wtf/go-nostr"
)

// Misbehaviour makes a Relay break the protocol on purpose, so that any
// package's tests can check what roster does with a hostile or merely odd
// relay. The zero value behaves. Set it with Options.Misbehave or, while the
// relay runs, with SetMisbehaviour.
type Misbehaviour struct {
	// DelayREQ, when it returns d > 0 for a filter of the relay's n-th REQ
	// (n counts from 1 over every connection), holds that filter's events
	// and so the REQ's EOSE back for d. NthREQ and MatchingREQ build it.
	DelayREQ func(n int, f nostr.Filter) time.Duration
	// Withhold: stored events it returns true for are never served.
	Withhold func(*nostr.Event) bool
	// FloodNotices is the number of NOTICE messages sent before each REQ is
	// answered.
	FloodNotices int
	// JunkEvents is the number of junk EVENT messages (matching the filter's
	// first kind, with an id that is not their hash and no valid signature)
	// sent for each filter of a REQ, before its real events and EOSE.
	JunkEvents int
	// ControlChars inserts terminal control characters (ESC sequences, BEL,
	// NUL, CR) into every CLOSED and OK reason and NOTICE the relay sends and
	// into the content and every tag value of the events it serves, which
	// breaks their ids unless Resign is set.
	ControlChars bool
	// Resign re-signs every event ControlChars altered with the relay's own
	// key, so the hostile text arrives in valid events.
	Resign bool
	// RefuseREQ, when it returns a non-empty reason for a filter, refuses
	// the REQ with CLOSED and that reason.
	RefuseREQ func(f nostr.Filter) string
	// RefuseEvent, when it returns a non-empty reason for a published event,
	// refuses it with OK false and that reason.
	RefuseEvent func(evt *nostr.Event) string
	// CacheFilters answers a filter identical to one answered less than
	// CacheFilters ago (from any connection, by the same NIP-42 reader) with
	// the earlier answer, even when newer events have arrived since, like
	// relays that cache query results (the TypeScript relay @nostr-relay
	// caches identical filters for one second: CacheFilters = time.Second).
	CacheFilters time.Duration
	// BreakAfter, when > 0, makes the relay send at most BreakAfter events
	// of a filter and then close the connection (no EOSE).
	BreakAfter int
	// DelayRelease, when it returns d > 0 for a published (ungoverned)
	// event, holds that event for d before the relay stores it and answers
	// OK: until then no reader sees it, and then it replaces what it is
	// newer than, like a relay slow to ingest one writer's edit while it
	// serves and stores another's (a racing edit released inside a
	// writer's cut window).
	DelayRelease func(evt *nostr.Event) time.Duration
	// DropEvent, when it returns true for a published event, closes the
	// connection the EVENT came on before the relay stores it or answers
	// OK, as a connection lost right after the EVENT was written: the
	// client knows it sent the event and not whether it is stored.
	DropEvent func(evt *nostr.Event) bool
	// HoldEvent, when it returns true for a published event, never answers
	// it: the relay waits until the connection closes (the client gave up
	// or was killed) and then forgets the event, never storing it, like a
	// relay still busy with an EVENT when the client goes away.
	HoldEvent func(evt *nostr.Event) bool
	// BadSignature: stored events it returns true for are served with
	// their id and content intact and a signature that does not verify
	// (a forged copy, as a hostile relay could serve of a real event).
	BadSignature func(*nostr.Event) bool
	// CapPerFilter, when > 0, answers each filter with at most that many
	// events, newest first, as relays that cap an answer do (strfry: 500
	// per filter by default); the EOSE says nothing of what was left out.
	CapPerFilter int
	// Strangers, when it returns a Strangers with Count > 0 for a filter
	// that names no author and no id, adds that many events from strangers'
	// keys matching the filter to its answer (before CapPerFilter, so they
	// crowd older events out): same-identifier spam, issues on a
	// coordinate, big events.
	Strangers func(f nostr.Filter) Strangers
}

// NthREQ delays the relay's n-th REQ (counting from 1) by d.
func NthREQ(n int, d time.Duration) func(int, nostr.Filter) time.Duration {
	return func(i int, _ nostr.Filter) time.Duration {
		if i == n {
			return d
		}
		return 0
	}
}

// MatchingREQ delays every REQ with a filter match reports true for by d.
func MatchingREQ(match func(nostr.Filter) bool, d time.Duration) func(int, nostr.Filter) time.Duration {
	return func(_ int, f nostr.Filter) time.Duration {
		if match(f) {
			return d
		}
		return 0
	}
}

// controlChars is what ControlChars inserts: a screen clear, a window-title
// change ended by BEL, a NUL, a carriage return and a colour change.
const controlChars = "\x1b[2J\x1b]0;owned\x07\x00\r\x1b[31m"

// SetMisbehaviour replaces the relay's misbehaviour (the zero value stops it)
// and forgets the filter cache.
func (r *Relay) SetMisbehaviour(m Misbehaviour) {
	r.misMu.Lock()
	r.mis = m
	r.misMu.Unlock()
	r.cache.reset()
}

func (r *Relay) misbehaviour() Misbehaviour {
	r.misMu.Lock()
	defer r.misMu.Unlock()
	return r.mis
}

// hostileReason decorates a reason the relay sends when ControlChars is set.
func (r *Relay) hostileReason(reason string) string {
	if reason == "" || !r.misbehaviour().ControlChars {
		return reason
	}
	prefix, rest, ok := strings.Cut(reason, ": ")
	if !ok {
		return controlChars + reason
	}
	// Keep the machine-readable prefix so the reason still classifies.
	return prefix + ": " + controlChars + rest + controlChars
}

// mangle returns a copy of evt with control characters in its content and
// tag values, re-signed by the relay when m.Resign.
func (r *Relay) mangle(m Misbehaviour, evt *nostr.Event) *nostr.Event {
	c := copyEvent(evt)
	c.Content += controlChars
	for _, t := range c.Tags {
		for i := 1; i < len(t); i++ {
			t[i] += controlChars
		}
	}
	if m.Resign {
		_ = c.Sign(r.secret)
	}
	return c
}

// junk is the i-th junk event for f: it looks like an event of f's first kind
// but its id is not its hash and its signature is zeros.
func (r *Relay) junk(f nostr.Filter, i int) *nostr.Event {
	kind := 1
	if len(f.Kinds) > 0 {
		kind = f.Kinds[0]
	}
	return &nostr.Event{
		ID:        fmt.Sprintf("%064x", i+1),
		PubKey:    r.self,
		CreatedAt: nostr.Now(),
		Kind:      kind,
		Content:   strings.Repeat("junk ", 20),
		Sig:       strings.Repeat("0", 128),
	}
}

// filterCache is CacheFilters' store: canonical filter (and reader) -> the
// events answered and when.
type filterCache struct {
	mu      sync.Mutex
	answers map[string]cachedAnswer
}

type cachedAnswer struct {
	at     time.Time
	events []*nostr.Event
}

func (c *filterCache) reset() {
	c.mu.Lock()
	c.answers = nil
	c.mu.Unlock()
}

// get returns the cached answer for key if it is younger than ttl.
func (c *filterCache) get(key string, ttl time.Duration, now time.Time) ([]*nostr.Event, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.answers[key]
	if !ok || now.Sub(a.at) >= ttl {
		return nil, false
	}
	return a.events, true
}

func (c *filterCache) put(key string, events []*nostr.Event, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answers == nil {
		c.answers = map[string]cachedAnswer{}
	}
	c.answers[key] = cachedAnswer{at: now, events: events}
}

// filterKey is a canonical text of f for reader: go-nostr's filter JSON
// writes the tag map in random order.
func filterKey(reader string, f nostr.Filter) string {
	tags := make([]string, 0, len(f.Tags))
	for k := range f.Tags {
		tags = append(tags, k)
	}
	sort.Strings(tags)
	var tv [][]string
	for _, k := range tags {
		tv = append(tv, append([]string{k}, f.Tags[k]...))
	}
	raw, _ := json.Marshal([]any{reader, f.IDs, f.Kinds, f.Authors, tv, f.Since, f.Until, f.Limit, f.LimitZero, f.Search})
	return string(raw)
}

// reqNumbers remembers, per REQ context, which REQ of the relay it is.
type reqNumbers struct{ m sync.Map } // context.Context -> int

func (n *reqNumbers) set(ctx context.Context, i int) {
	n.m.Store(ctx, i)
	go func() {
		<-ctx.Done()
		n.m.Delete(ctx)
	}()
}

func (n *reqNumbers) get(ctx context.Context) int {
	if v, ok := n.m.Load(ctx); ok {
		return v.(int)
	}
	return 0
}

// misbehavingAnswer applies Withhold, ControlChars and CacheFilters to the
// answer of f for reader.
func (r *Relay) misbehavingAnswer(m Misbehaviour, reader string, f nostr.Filter) []*nostr.Event {
	var key string
	now := time.Now()
	if m.CacheFilters > 0 {
		key = filterKey(reader, f)
		if evs, ok := r.cache.get(key, m.CacheFilters, now); ok {
			return evs
		}
	}
	found := r.answer(reader, f)
	if m.Withhold != nil {
		kept := found[:0]
		for _, e := range found {
			if !m.Withhold(e) {
				kept = append(kept, e)
			}
		}
		found = kept
	}
	found = r.hostileAnswer(m, f, found)
	if m.ControlChars {
		for i, e := range found {
			found[i] = r.mangle(m, e)
		}
	}
	if m.CacheFilters > 0 {
		r.cache.put(key, found, now)
	}
	return found
}

// breakConnection closes the TCP connection under ws.
func (r *Relay) breakConnection(ws *khatru.WebSocket) {
	remote := ws.Request.RemoteAddr
	r.mu.Lock()
	var victim []interface{ Close() error }
	for c := range r.rawConns {
		if c.RemoteAddr().String() == remote {
			victim = append(victim, c)
		}
	}
	r.mu.Unlock()
	for _, c := range victim {
		_ = c.Close()
	}
}

// deliverBroken writes at most m.BreakAfter events of found itself, then
// breaks the connection; the returned channel never yields.
func (r *Relay) deliverBroken(ctx context.Context, m Misbehaviour, found []*nostr.Event) chan *nostr.Event {
	ws := khatru.GetConnection(ctx)
	id, _ := subscriptionID(ctx)
	ch := make(chan *nostr.Event)
	go func() {
		defer close(ch)
		for i, evt := range found {
			if i == m.BreakAfter {
				break
			}
			if ws.WriteJSON(nostr.EventEnvelope{SubscriptionID: &id, Event: *evt}) != nil {
				return
			}
		}
		r.breakConnection(ws)
		select {
		case <-ws.Context.Done():
		case <-r.closed:
		}
	}()
	return ch
}
