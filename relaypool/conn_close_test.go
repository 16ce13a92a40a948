package relaypool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
)

// silentPeer is one connection to a peerRelay: raw is its TCP connection,
// gone is closed once the client closed its side (a read of raw ended).
type silentPeer struct {
	raw  *net.TCPConn
	gone chan struct{}
}

// peerRelay is a relay that answers the first REQ of each connection with
// what script returns for its subscription id, then falls silent: it reads
// and discards everything (a close handshake included, never answered)
// until the client closes the TCP connection. Each connection is sent on
// the returned channel once the script is written.
func peerRelay(t *testing.T, script func(subID string) []string) (string, <-chan *silentPeer) {
	t.Helper()
	var mu sync.Mutex
	raws := map[string]*net.TCPConn{}
	peers := make(chan *silentPeer, 64)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		raw := raws[r.RemoteAddr]
		mu.Unlock()
		c, err := websocket.Accept(w, r, nil)
		if err != nil || raw == nil {
			return
		}
		defer c.CloseNow()
		ctx := context.Background()
		_, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		var req []json.RawMessage
		var subID string
		if json.Unmarshal(msg, &req) == nil && len(req) >= 2 {
			_ = json.Unmarshal(req[1], &subID)
		}
		for _, out := range script(subID) {
			if c.Write(ctx, websocket.MessageText, []byte(out)) != nil {
				return
			}
		}
		p := &silentPeer{raw: raw, gone: make(chan struct{})}
		peers <- p
		_, _ = io.Copy(io.Discard, raw)
		close(p.gone)
	}))
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			if tc, ok := c.(*net.TCPConn); ok {
				mu.Lock()
				raws[c.RemoteAddr().String()] = tc
				mu.Unlock()
			}
		}
	}
	srv.Start()
	t.Cleanup(func() {
		mu.Lock()
		for _, raw := range raws {
			raw.Close()
		}
		mu.Unlock()
		srv.Close()
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http"), peers
}

func nextPeer(t *testing.T, peers <-chan *silentPeer) *silentPeer {
	t.Helper()
	select {
	case p := <-peers:
		return p
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for the relay to answer the REQ")
		return nil
	}
}

// waitClosed waits until the client closed its side of p's connection.
func waitClosed(t *testing.T, p *silentPeer, what string) {
	t.Helper()
	select {
	case <-p.gone:
	case <-time.After(10 * time.Second):
		t.Fatalf("after 10 s the client still holds the connection open: %s", what)
	}
}

// maxGoroutineID is the highest id of a running goroutine; ids only grow,
// so a goroutine with a higher id started after this call.
func maxGoroutineID() int {
	highest := 0
	for _, g := range goroutines() {
		highest = max(highest, g.id)
	}
	return highest
}

type goroutine struct {
	id    int
	stack string
}

func goroutines() []goroutine {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []goroutine
	for _, block := range bytes.Split(buf, []byte("\n\n")) {
		head, _, _ := strings.Cut(string(block), " [")
		id, err := strconv.Atoi(strings.TrimPrefix(head, "goroutine "))
		if err == nil {
			out = append(out, goroutine{id: id, stack: string(block)})
		}
	}
	return out
}

// waitNoWebsocketGoroutinesSince waits until no goroutine started after
// floor runs coder/websocket or a conn's reader.
func waitNoWebsocketGoroutinesSince(t *testing.T, floor int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var left []string
		for _, g := range goroutines() {
			if g.id > floor && (strings.Contains(g.stack, "github.com/coder/websocket.") || strings.Contains(g.stack, "relaypool.(*conn).read")) {
				left = append(left, g.stack)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d websocket goroutines left running:\n\n%s", len(left), strings.Join(left, "\n\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func eoseScript(subID string) []string { return []string{`["EOSE",` + strconv.Quote(subID) + `]`} }

// Rule (Pool.Close: no goroutine or socket leaks): a connection whose read
// failed (here the relay closed the TCP connection under the reader) is
// closed at once, without a close handshake, and after Pool.Close no
// websocket goroutine of it is left.
func TestAConnectionWhoseReadFailedIsClosedAtOnce(t *testing.T) {
	floor := maxGoroutineID()
	url, peers := peerRelay(t, eoseScript)
	p := New(Options{Timeout: 5 * time.Second})
	defer p.Close()
	if res := p.Fetch(context.Background(), []string{url}, nostr.Filter{Kinds: []int{1}}); !res.Complete {
		t.Fatalf("fetch %+v, want complete", res.Relays)
	}
	peer := nextPeer(t, peers)
	p.mu.Lock()
	var c *conn
	for _, d := range p.conns {
		c = d.c
	}
	p.mu.Unlock()
	if c == nil {
		t.Fatal("the pool kept no connection")
	}

	if err := peer.raw.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the reader did not stop when the relay closed the connection")
	}
	waitClosed(t, peer, "a connection whose read failed must be closed then")

	start := time.Now()
	p.Close()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %s", d)
	}
	waitNoWebsocketGoroutinesSince(t, floor)
}

// Rule (Pool.Close: no goroutine or socket leaks): closing a connection
// closes its websocket at once whatever its reader was doing, here
// handing an event to a subscriber that is not taking it, and without
// waiting for a silent relay to answer a close handshake. (Without it the
// reader may stop before the websocket library notices the cancelled
// read, a coin toss per connection: 16 connections make the test fail
// all but surely.)
func TestClosingAConnectionWhoseReaderIsBusyClosesItAtOnce(t *testing.T) {
	floor := maxGoroutineID()
	const conns = 16
	url, peers := peerRelay(t, func(subID string) []string {
		var events []string
		for i := range 80 {
			events = append(events, fmt.Sprintf(`["EVENT",%q,{"id":"%064x","pubkey":"%064x","created_at":1,"kind":1,"tags":[],"content":"","sig":"%0128x"}]`, subID, i, 1, 2))
		}
		return events
	})
	var cs []*conn
	var subs []*subscription
	for range conns {
		c, err := dial(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer c.close()
		s := c.subscribe()
		if err := c.req(context.Background(), s, []nostr.Filter{{Kinds: []int{1}}}); err != nil {
			t.Fatal(err)
		}
		cs, subs = append(cs, c), append(subs, s)
	}
	var ps []*silentPeer
	for range conns {
		ps = append(ps, nextPeer(t, peers))
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, s := range subs {
		for len(s.ch) < cap(s.ch) {
			if time.Now().After(deadline) {
				t.Fatalf("the subscriber holds %d events, want its %d", len(s.ch), cap(s.ch))
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	start := time.Now()
	for _, c := range cs {
		c.close()
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("closing %d connections took %s", conns, d)
	}
	for i, p := range ps {
		waitClosed(t, p, fmt.Sprintf("connection %d of %d was closed while its reader was busy", i+1, conns))
	}
	waitNoWebsocketGoroutinesSince(t, floor)
}
