package devrelay

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
)

// rawAnswer is every message a relay sent for one REQ, in order, until its
// EOSE or CLOSED, or until the connection ended (Broken).
type rawAnswer struct {
	Events  []nostr.Event
	Notices []string
	Closed  string // the CLOSED reason; "" when none
	EOSE    bool
	Broken  bool
}

// rawConn is a bare websocket client: it shows what go-nostr would hide
// (NOTICEs, invalid events, the exact reason text).
type rawConn struct {
	t *testing.T
	c *websocket.Conn
}

func dialRaw(t *testing.T, r *Relay) *rawConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, r.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(1 << 22)
	t.Cleanup(func() { c.CloseNow() })
	return &rawConn{t: t, c: c}
}

func (rc *rawConn) send(msg any) {
	rc.t.Helper()
	raw, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rc.c.Write(ctx, websocket.MessageText, raw); err != nil {
		rc.t.Fatal(err)
	}
}

// next reads one message as its JSON array.
func (rc *rawConn) next(ctx context.Context) ([]json.RawMessage, error) {
	_, raw, err := rc.c.Read(ctx)
	if err != nil {
		return nil, err
	}
	var msg []json.RawMessage
	if err := json.Unmarshal(raw, &msg); err != nil || len(msg) == 0 {
		rc.t.Fatalf("unparseable message %q", raw)
	}
	return msg, nil
}

func label(m []json.RawMessage) string {
	var s string
	_ = json.Unmarshal(m[0], &s)
	return s
}

// req sends one REQ and reads its answer.
func (rc *rawConn) req(sub string, filters ...nostr.Filter) rawAnswer {
	rc.t.Helper()
	msg := []any{"REQ", sub}
	for _, f := range filters {
		msg = append(msg, f)
	}
	rc.send(msg)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var out rawAnswer
	for {
		m, err := rc.next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				rc.t.Fatalf("no EOSE, CLOSED or disconnect for %s: %+v", sub, out)
			}
			out.Broken = true
			return out
		}
		switch label(m) {
		case "NOTICE":
			var s string
			_ = json.Unmarshal(m[1], &s)
			out.Notices = append(out.Notices, s)
		case "EVENT":
			var id string
			if _ = json.Unmarshal(m[1], &id); id != sub {
				continue // a live event for an earlier subscription
			}
			var evt nostr.Event
			if err := json.Unmarshal(m[2], &evt); err != nil {
				rc.t.Fatal(err)
			}
			out.Events = append(out.Events, evt)
		case "EOSE":
			out.EOSE = true
			return out
		case "CLOSED":
			_ = json.Unmarshal(m[2], &out.Closed)
			return out
		}
	}
}

// publish sends an EVENT and returns the relay's OK.
func (rc *rawConn) publish(evt *nostr.Event) (bool, string) {
	rc.t.Helper()
	rc.send([]any{"EVENT", evt})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		m, err := rc.next(ctx)
		if err != nil {
			rc.t.Fatalf("no OK: %v", err)
		}
		if label(m) == "OK" {
			var ok bool
			var reason string
			_ = json.Unmarshal(m[2], &ok)
			_ = json.Unmarshal(m[3], &reason)
			return ok, reason
		}
	}
}

func seedNotes(t *testing.T, r *Relay, n int) []*nostr.Event {
	t.Helper()
	var out []*nostr.Event
	for i := 0; i < n; i++ {
		e := sign(t, "alice", 1, int64(100+i), "note")
		if err := r.Publish(e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

var notes = nostr.Filter{Kinds: []int{1}}

// Misbehaviour: DelayREQ holds back only the REQ it selects.
func TestMisbehaviourDelaysTheChosenREQ(t *testing.T) {
	const hold = 400 * time.Millisecond
	r := start(t, Options{Misbehave: Misbehaviour{DelayREQ: NthREQ(2, hold)}})
	seedNotes(t, r, 1)
	c := dialRaw(t, r)
	for i, want := range []bool{false, true, false} {
		began := time.Now()
		a := c.req("s", notes)
		took := time.Since(began)
		if !a.EOSE || len(a.Events) != 1 {
			t.Fatalf("REQ %d: %+v", i+1, a)
		}
		if delayed := took >= hold; delayed != want {
			t.Errorf("REQ %d took %s; delayed %v, want %v", i+1, took, delayed, want)
		}
	}
	r.SetMisbehaviour(Misbehaviour{DelayREQ: MatchingREQ(func(f nostr.Filter) bool { return len(f.IDs) > 0 }, hold)})
	began := time.Now()
	if a := c.req("by-id", nostr.Filter{IDs: []string{strings.Repeat("a", 64)}}); !a.EOSE || time.Since(began) < hold {
		t.Errorf("a REQ matching the predicate was not delayed: %+v after %s", a, time.Since(began))
	}
}

// Misbehaviour: Withhold keeps matching stored events back; the rest are served.
func TestMisbehaviourWithholdsMatchingEvents(t *testing.T) {
	r := start(t, Options{})
	evs := seedNotes(t, r, 3)
	r.SetMisbehaviour(Misbehaviour{Withhold: func(e *nostr.Event) bool { return e.ID == evs[1].ID }})
	a := dialRaw(t, r).req("s", notes)
	if !a.EOSE || len(a.Events) != 2 {
		t.Fatalf("%+v, want two events and EOSE", a)
	}
	for _, e := range a.Events {
		if e.ID == evs[1].ID {
			t.Fatal("the withheld event was served")
		}
	}
}

// Misbehaviour: FloodNotices and JunkEvents come before the real answer.
func TestMisbehaviourFloodsNoticesAndJunkBeforeEOSE(t *testing.T) {
	r := start(t, Options{Misbehave: Misbehaviour{FloodNotices: 50, JunkEvents: 200}})
	real := seedNotes(t, r, 1)[0]
	a := dialRaw(t, r).req("s", notes)
	if !a.EOSE || len(a.Notices) != 50 || len(a.Events) != 201 {
		t.Fatalf("EOSE %v, %d notices, %d events; want 50 notices, 200 junk + 1 event", a.EOSE, len(a.Notices), len(a.Events))
	}
	junk := 0
	for _, e := range a.Events {
		if e.ID == real.ID {
			continue
		}
		if e.CheckID() || e.Kind != 1 {
			t.Fatalf("junk event %+v has a valid id or the wrong kind", e)
		}
		junk++
	}
	if junk != 200 {
		t.Errorf("%d junk events, want 200", junk)
	}
}

// Misbehaviour: ControlChars puts control characters into CLOSED and OK
// reasons, NOTICEs and served events (breaking their ids); with Resign the
// events are valid and signed by the relay.
func TestMisbehaviourInjectsControlCharacters(t *testing.T) {
	r := start(t, Options{})
	orig := seedNotes(t, r, 1)[0]
	r.SetMisbehaviour(Misbehaviour{ControlChars: true, FloodNotices: 1,
		RefuseREQ:   func(f nostr.Filter) string { return map[bool]string{true: "blocked: no kind 7"}[slicesHas(f.Kinds, 7)] },
		RefuseEvent: func(e *nostr.Event) string { return map[bool]string{true: "blocked: no kind 7"}[e.Kind == 7] }})
	c := dialRaw(t, r)
	a := c.req("s", notes)
	if !a.EOSE || len(a.Events) != 1 || len(a.Notices) != 1 || !strings.Contains(a.Notices[0], "\x1b") {
		t.Fatalf("%+v", a)
	}
	got := a.Events[0]
	if !strings.Contains(got.Content, "\x1b]0;") || !strings.Contains(got.Content, "\x00") || got.CheckID() {
		t.Errorf("served content %q (id valid %v), want control characters and a broken id", got.Content, got.CheckID())
	}
	refused := c.req("k7", nostr.Filter{Kinds: []int{7}})
	if !strings.HasPrefix(refused.Closed, "blocked: ") || !strings.Contains(refused.Closed, "\x07") {
		t.Errorf("CLOSED reason %q, want the prefix kept and control characters", refused.Closed)
	}
	ok, reason := c.publish(sign(t, "alice", 7, 100, "+"))
	if ok || !strings.HasPrefix(reason, "blocked: ") || !strings.Contains(reason, "\x1b[2J") {
		t.Errorf("OK %v %q, want a refusal with control characters", ok, reason)
	}
	r.SetMisbehaviour(Misbehaviour{ControlChars: true, Resign: true})
	a = dialRaw(t, r).req("s2", notes)
	if len(a.Events) != 1 {
		t.Fatalf("%+v", a)
	}
	got = a.Events[0]
	if ok, _ := got.CheckSignature(); !ok || !got.CheckID() || got.PubKey != r.Self() || !strings.Contains(got.Content, "\x1b") || got.ID == orig.ID {
		t.Errorf("re-signed event %+v: want a valid event by the relay carrying control characters", got)
	}
}

func slicesHas(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// Misbehaviour: CacheFilters answers an identical filter with the earlier
// answer until it expires, even after new events arrived; a different filter
// (by id) is answered fresh.
func TestMisbehaviourCachesIdenticalFilters(t *testing.T) {
	const ttl = 300 * time.Millisecond
	r := start(t, Options{Misbehave: Misbehaviour{CacheFilters: ttl}})
	seedNotes(t, r, 1)
	first := dialRaw(t, r).req("a", nostr.Filter{Kinds: []int{1}})
	if len(first.Events) != 1 {
		t.Fatalf("%+v", first)
	}
	cached := time.Now()
	fresh := sign(t, "bob", 1, 500, "new")
	if err := r.Publish(fresh); err != nil {
		t.Fatal(err)
	}
	// Another connection, same filter: the cached answer.
	again := dialRaw(t, r).req("b", nostr.Filter{Kinds: []int{1}})
	if time.Since(cached) < ttl && len(again.Events) != 1 {
		t.Fatalf("identical filter within %s got %d events, want the cached 1", ttl, len(again.Events))
	}
	byID := dialRaw(t, r).req("c", nostr.Filter{IDs: []string{fresh.ID}})
	if len(byID.Events) != 1 || byID.Events[0].ID != fresh.ID {
		t.Fatalf("a different filter got %+v, want the new event", byID)
	}
	eventually(t, "the cached answer to expire", func() bool {
		return len(dialRaw(t, r).req("d", nostr.Filter{Kinds: []int{1}}).Events) == 2
	})
	// Two filters in one REQ are cached one by one.
	r.SetMisbehaviour(Misbehaviour{CacheFilters: time.Hour})
	c := dialRaw(t, r)
	c.req("e", nostr.Filter{Kinds: []int{1}})
	late := sign(t, "carol", 1, 600, "late")
	if err := r.Publish(late); err != nil {
		t.Fatal(err)
	}
	both := c.req("f", nostr.Filter{Kinds: []int{1}}, nostr.Filter{IDs: []string{late.ID}})
	if len(both.Events) != 3 {
		t.Fatalf("%d events, want the cached 2 plus the new one by id", len(both.Events))
	}
}

// Misbehaviour: BreakAfter sends K events and closes the connection, no EOSE.
func TestMisbehaviourBreaksMidStream(t *testing.T) {
	r := start(t, Options{Misbehave: Misbehaviour{BreakAfter: 2}})
	seedNotes(t, r, 5)
	a := dialRaw(t, r).req("s", notes)
	if !a.Broken || a.EOSE || len(a.Events) != 2 {
		t.Fatalf("broken %v, EOSE %v, %d events; want 2 events then a closed connection", a.Broken, a.EOSE, len(a.Events))
	}
	eventually(t, "the relay to count the connection closed", func() bool { return r.Connections() == 0 })
}

// DropEvent loses the connection right after the EVENT: no OK comes back
// and the relay does not store the event.
func TestMisbehaviourDropsTheConnectionAfterTheEvent(t *testing.T) {
	r := start(t, Options{Misbehave: Misbehaviour{DropEvent: func(*nostr.Event) bool { return true }}})
	evt := nostr.Event{Kind: 1, CreatedAt: nostr.Now(), Content: "x"}
	if err := evt.Sign(strings.Repeat("31", 32)); err != nil {
		t.Fatal(err)
	}
	c := dialRaw(t, r)
	c.send([]any{"EVENT", evt})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		msg, err := c.next(ctx)
		if err != nil {
			break
		}
		if len(msg) > 0 && string(msg[0]) != `"AUTH"` {
			t.Fatalf("the relay answered %s; want the connection closed", msg)
		}
	}
	if ctx.Err() != nil {
		t.Fatal("the connection stayed open")
	}
	if got := r.Stored(nostr.Filter{IDs: []string{evt.ID}}); len(got) != 0 {
		t.Fatalf("the dropped event was stored: %v", got)
	}
}

// HoldEvent never answers the EVENT and, once the client's connection is
// gone, has not stored it.
func TestMisbehaviourHoldsTheEventUntilTheClientGoesAway(t *testing.T) {
	r := start(t, Options{Misbehave: Misbehaviour{HoldEvent: func(*nostr.Event) bool { return true }}})
	evt := nostr.Event{Kind: 1, CreatedAt: nostr.Now(), Content: "x"}
	if err := evt.Sign(strings.Repeat("31", 32)); err != nil {
		t.Fatal(err)
	}
	c := dialRaw(t, r)
	c.send([]any{"EVENT", evt})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	for {
		msg, err := c.next(ctx)
		if err != nil {
			break
		}
		if len(msg) > 0 && string(msg[0]) == `"OK"` {
			t.Fatalf("the relay answered %s", msg)
		}
	}
	c.c.CloseNow()
	eventually(t, "the relay to count the connection closed", func() bool { return r.Connections() == 0 })
	r.SetMisbehaviour(Misbehaviour{})
	if got := r.Stored(nostr.Filter{IDs: []string{evt.ID}}); len(got) != 0 {
		t.Fatalf("the held event was stored: %v", got)
	}
}
