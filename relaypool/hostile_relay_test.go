package relaypool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

func hostile(t *testing.T, m devrelay.Misbehaviour) *devrelay.Relay {
	t.Helper()
	return devrelay.StartN(t, 1, devrelay.Options{Misbehave: m})[0]
}

func hasControl(s string) bool { return strings.ContainsFunc(s, unicode.IsControl) }

// Rule (relay text is untrusted, and escaped where it is printed): CLOSED
// reasons and OK messages keep their machine-readable prefix and arrive as
// the relay sent them, valid UTF-8, for JSON to carry raw; the terminal
// escaping is termtext's (tested with the human output).
func TestRelayReasonsKeepTheirPrefixAndText(t *testing.T) {
	r := hostile(t, devrelay.Misbehaviour{ControlChars: true,
		RefuseREQ:   func(nostr.Filter) string { return "blocked: go away" },
		RefuseEvent: func(*nostr.Event) string { return "blocked: not you" }})
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{r.URL()}, nostr.Filter{Kinds: []int{30617}})
	rep := res.Relays[0]
	if rep.Status != relaypool.StatusClosed || !strings.HasPrefix(rep.Reason, "blocked: ") || !utf8.ValidString(rep.Reason) {
		t.Errorf("report %+v: want closed, prefix kept", rep)
	}
	pub := p.Publish(context.Background(), []string{r.URL()}, announcement(t, "alice", "repo", 100))[0]
	if pub.OK || !strings.HasPrefix(pub.Message, "blocked: ") || !utf8.ValidString(pub.Message) {
		t.Errorf("publish report %+v: want refused, prefix kept", pub)
	}
}

// Rule (relay text is untrusted): a reason is cut to MaxReasonBytes.
func TestRelayReasonsAreBounded(t *testing.T) {
	r := hostile(t, devrelay.Misbehaviour{RefuseREQ: func(nostr.Filter) string { return "blocked: " + strings.Repeat("spam ", 100_000) }})
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	rep := p.Fetch(context.Background(), []string{r.URL()}, nostr.Filter{Kinds: []int{30617}}).Relays[0]
	if rep.Status != relaypool.StatusClosed || len(rep.Reason) > relaypool.MaxReasonBytes+len("…") {
		t.Errorf("status %s, reason of %d bytes; want closed and at most %d", rep.Status, len(rep.Reason), relaypool.MaxReasonBytes)
	}
}

// Rule (events are verified): events a relay altered (control characters
// in content and tags) fail their id and are dropped; re-signed by the
// relay they are valid events of the relay's key, kept as such.
func TestEventsARelayAlteredAreDropped(t *testing.T) {
	ann := announcement(t, "alice", "repo", 100, nostr.Tag{"name", "repo"})
	r := hostile(t, devrelay.Misbehaviour{})
	if err := r.Publish(ann); err != nil {
		t.Fatal(err)
	}
	r.SetMisbehaviour(devrelay.Misbehaviour{ControlChars: true})
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{r.URL()}, nostr.Filter{Kinds: []int{30617}})
	if !res.Complete || len(res.Events) != 0 || res.Relays[0].Dropped != 1 {
		t.Fatalf("complete %v, %d events, report %+v; want the altered event dropped", res.Complete, len(res.Events), res.Relays[0])
	}
	r.SetMisbehaviour(devrelay.Misbehaviour{ControlChars: true, Resign: true})
	res = p.Fetch(context.Background(), []string{r.URL()}, nostr.Filter{Kinds: []int{30617}})
	if len(res.Events) != 1 || res.Events[0].PubKey != r.Self() {
		t.Fatalf("%d events; want the relay's own re-signed copy", len(res.Events))
	}
}

// Rule (bound attacker-controlled costs): junk events and a NOTICE flood
// before EOSE cost no signature check; the answer is complete and counts
// the junk as dropped.
func TestJunkAndNoticeFloodsCostNoSignatureChecks(t *testing.T) {
	ann := announcement(t, "alice", "repo", 100)
	r := hostile(t, devrelay.Misbehaviour{})
	if err := r.Publish(ann); err != nil {
		t.Fatal(err)
	}
	r.SetMisbehaviour(devrelay.Misbehaviour{FloodNotices: 1000, JunkEvents: 2000})
	p := relaypool.New(relaypool.Options{Timeout: 10 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{r.URL()}, nostr.Filter{Kinds: []int{30617}})
	if !res.Complete || len(res.Events) != 1 || res.Relays[0].Dropped != 2000 {
		t.Fatalf("complete %v, %d events, report %+v", res.Complete, len(res.Events), res.Relays[0])
	}
	if n := p.SignatureChecks(); n != 1 {
		t.Errorf("%d signature checks, want 1 (junk fails its id first)", n)
	}
}

// Rule (per-relay status: failed): a relay that closes the connection in the
// middle of its answer failed; what it sent before is verified and kept, and
// the result is incomplete.
func TestRelayThatBreaksMidStreamFailed(t *testing.T) {
	r := hostile(t, devrelay.Misbehaviour{})
	for i := 0; i < 5; i++ {
		if err := r.Publish(announcement(t, fmt.Sprintf("m%d", i), "repo", 100)); err != nil {
			t.Fatal(err)
		}
	}
	r.SetMisbehaviour(devrelay.Misbehaviour{BreakAfter: 2})
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{r.URL()}, nostr.Filter{Kinds: []int{30617}})
	if res.Complete || res.Relays[0].Status != relaypool.StatusFailed || len(res.Events) != 2 {
		t.Fatalf("complete %v, report %+v, %d events; want failed with the 2 events sent", res.Complete, res.Relays[0], len(res.Events))
	}
}

// Rule (every relay operation has a timeout): a relay that holds one REQ
// back past the timeout timed out on that REQ and answers the next.
func TestDelayedREQTimesOut(t *testing.T) {
	r := hostile(t, devrelay.Misbehaviour{DelayREQ: devrelay.NthREQ(1, time.Minute)})
	p := relaypool.New(relaypool.Options{Timeout: 300 * time.Millisecond})
	defer p.Close()
	f := nostr.Filter{Kinds: []int{30617}}
	if rep := p.Fetch(context.Background(), []string{r.URL()}, f).Relays[0]; rep.Status != relaypool.StatusTimeout {
		t.Fatalf("first REQ: %+v, want timeout", rep)
	}
	if res := p.Fetch(context.Background(), []string{r.URL()}, f); !res.Complete {
		t.Fatalf("second REQ: %+v, want an answer", res.Relays[0])
	}
}

// Rule (bounded connections): one operation talks to at most
// MaxConcurrent relays at once, however many it was given.
func TestFetchTalksToAtMostMaxConcurrentRelaysAtOnce(t *testing.T) {
	// Every relay holds its answer back a little, so without the bound all
	// of them would be busy at once.
	relays := devrelay.StartN(t, 3*relaypool.MaxConcurrent, devrelay.Options{Misbehave: devrelay.Misbehaviour{
		DelayREQ: func(int, nostr.Filter) time.Duration { return 50 * time.Millisecond }}})
	p := relaypool.New(relaypool.Options{Timeout: 10 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}})
	if !res.Complete {
		t.Fatalf("incomplete: %+v", res.Relays)
	}
	if peak := relaypool.PeakConcurrency(p); peak > relaypool.MaxConcurrent || peak < 2 {
		t.Errorf("peak %d relays at once, want 2..%d", peak, relaypool.MaxConcurrent)
	}
}

// Rule (REQ size bound): filters that would make a REQ bigger than
// MaxREQBytes are split into several REQs, each under the bound, that
// together ask for exactly the same events.
func TestLargeFiltersAreSplitIntoREQsUnderTheBound(t *testing.T) {
	var maxSeen, reqs atomic.Int64
	var authors []string
	for i := 0; i < 3000; i++ {
		authors = append(authors, fmt.Sprintf("%064x", i))
	}
	evt := announcement(t, "alice", "repo", 100)
	authors = append(authors, evt.PubKey)
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	sized := sizingRelay(t, func(n int) {
		reqs.Add(1)
		for m := maxSeen.Load(); int64(n) > m && !maxSeen.CompareAndSwap(m, int64(n)); m = maxSeen.Load() {
		}
	}, evt)
	f := nostr.Filter{Kinds: []int{30617}, Authors: authors, Tags: nostr.TagMap{"d": {"repo"}}}
	res := p.Fetch(context.Background(), []string{sized}, f, nostr.Filter{Kinds: []int{5}, Tags: nostr.TagMap{"a": {"30617:" + evt.PubKey + ":repo"}}})
	if !res.Complete || len(res.Events) != 1 {
		t.Fatalf("complete %v, %d events, %+v", res.Complete, len(res.Events), res.Relays)
	}
	if reqs.Load() < 2 || maxSeen.Load() > relaypool.MaxREQBytes {
		t.Errorf("%d REQs, the largest %d bytes; want several, each at most %d", reqs.Load(), maxSeen.Load(), relaypool.MaxREQBytes)
	}
	raw, _ := json.Marshal(f)
	if len(raw) <= relaypool.MaxREQBytes {
		t.Fatalf("test filter of %d bytes is not over the bound", len(raw))
	}
}

// sizingRelay reports the size of every REQ message to onREQ and answers
// each with evt when one of its filters matches, then EOSE.
func sizingRelay(t *testing.T, onREQ func(bytes int), evt *nostr.Event) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(1 << 24)
		ctx := r.Context()
		for {
			_, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			var req []json.RawMessage
			if json.Unmarshal(msg, &req) != nil || len(req) < 2 || string(req[0]) != `"REQ"` {
				continue
			}
			onREQ(len(msg))
			var subID string
			_ = json.Unmarshal(req[1], &subID)
			var out []string
			for _, raw := range req[2:] {
				var f nostr.Filter
				if json.Unmarshal(raw, &f) == nil && f.Matches(evt) {
					out = []string{eventMsg(t, subID, evt)}
				}
			}
			for _, m := range append(out, eoseMsg(subID)) {
				if c.Write(ctx, websocket.MessageText, []byte(m)) != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}
