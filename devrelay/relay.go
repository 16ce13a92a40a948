package devrelay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fiatjaf/khatru"
	"github.com/nbd-wtf/go-nostr"
)

// Options configure a Relay.
type Options struct {
	// Addr is the TCP address to listen on; "127.0.0.1:0" (a free port) when empty.
	Addr string
	// SecretKey is the relay's own key (hex or nsec), published as NIP-11
	// `self` and used to sign authority events. Random when empty.
	SecretKey string
	// RequireAuth makes REQ and EVENT from unauthenticated connections fail
	// with an `auth-required:` CLOSED or OK.
	RequireAuth bool
	// Authorities are relay-side state machines (NIP-SW, NIP-PC, NIP-29).
	Authorities []Authority
	// Log receives the relay's own diagnostics (nil: discarded).
	Log *log.Logger
	// Misbehave makes the relay break the protocol on purpose (tests only;
	// the zero value behaves). See Misbehaviour.
	Misbehave Misbehaviour
}

// Relay is an in-process Nostr relay on a real TCP port.
type Relay struct {
	opts      Options
	secret    string
	self      string
	kr        *khatru.Relay
	store     *store
	live      *liveTable
	authority map[int]Authority
	// routing is held from an authority's commit until the events it
	// derived are stored: a later command (and the conflict it is answered
	// with) never sees a commit whose projection a read cannot yet find.
	routing sync.Mutex

	slow   atomic.Int64 // EOSE delay in nanoseconds
	silent atomic.Bool
	reqs   atomic.Int64
	events atomic.Int64 // EVENT messages that reached rejectEvent
	conns  atomic.Int64 // open websocket connections
	open   sync.Map     // *khatru.WebSocket -> true while open

	extraMu sync.Mutex
	extra   []*nostr.Event // SetExtra

	delays delays // DelayNext
	misMu  sync.Mutex
	mis    Misbehaviour
	cache  filterCache // Misbehaviour.CacheFilters
	reqNum reqNumbers  // REQ context -> its number, for Misbehaviour.DelayREQ

	reqLogMu sync.Mutex
	reqLog   map[int][]nostr.Filter // REQ number -> its filters, for Requests

	mu       sync.Mutex // guards the fields below
	addr     string     // actual listen address once started
	srv      *http.Server
	ln       net.Listener
	held     io.Closer // the port, bound while stopped (holdPort)
	rawConns map[net.Conn]struct{}
	closed   chan struct{}
	closeOne sync.Once
}

// New builds a relay; call Start to listen.
func New(opts Options) (*Relay, error) {
	secret, err := secretKey(opts.SecretKey)
	if err != nil {
		return nil, err
	}
	self, err := nostr.GetPublicKey(secret)
	if err != nil {
		return nil, fmt.Errorf("relay secret key: %w", err)
	}
	r := &Relay{
		opts:      opts,
		secret:    secret,
		self:      self,
		store:     newStore(),
		live:      newLiveTable(),
		authority: map[int]Authority{},
		rawConns:  map[net.Conn]struct{}{},
		closed:    make(chan struct{}),
		mis:       opts.Misbehave,
	}
	for _, a := range opts.Authorities {
		for _, k := range a.Kinds() {
			if _, dup := r.authority[k]; dup {
				return nil, fmt.Errorf("two authorities claim kind %d", k)
			}
			r.authority[k] = a
		}
	}
	r.kr = r.newKhatru()
	return r, nil
}

func secretKey(s string) (string, error) {
	if s == "" {
		return nostr.GeneratePrivateKey(), nil
	}
	if strings.HasPrefix(s, "nsec1") {
		return decodeNsec(s)
	}
	if !nostr.IsValid32ByteHex(s) {
		return "", errors.New("relay secret key must be 64 hex characters or an nsec")
	}
	return strings.ToLower(s), nil
}

// Start listens on Options.Addr (or, after Stop, on the same port as before)
// and serves in the background.
func (r *Relay) Start() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.srv != nil {
		return errors.New("relay already started")
	}
	addr := r.addr
	if addr == "" {
		addr = r.opts.Addr
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if r.held != nil {
		_ = r.held.Close()
		r.held = nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("relay cannot listen on %s: %w", addr, err)
	}
	r.addr = ln.Addr().String()
	srv := &http.Server{Handler: r.handler(), ConnState: r.trackConn, ReadHeaderTimeout: 5 * time.Second}
	r.srv, r.ln = srv, ln
	go func() { _ = srv.Serve(ln) }()
	return nil
}

// URL is the relay's websocket address, e.g. ws://127.0.0.1:40123.
func (r *Relay) URL() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return "ws://" + r.addr
}

// Self is the relay's pubkey (hex), as published in NIP-11 `self`.
func (r *Relay) Self() string { return r.self }

// Stop takes the relay off the network: the port refuses connections and
// every open websocket is closed. Stored events are kept and Start brings the
// relay back on the same port, which stays bound meanwhile (holdPort) so
// that no other listener of the machine is given it.
func (r *Relay) Stop() {
	r.mu.Lock()
	srv, ln := r.srv, r.ln
	r.srv, r.ln = nil, nil
	conns := make([]net.Conn, 0, len(r.rawConns))
	for c := range r.rawConns {
		conns = append(conns, c)
	}
	clear(r.rawConns)
	r.mu.Unlock()
	if srv == nil {
		return
	}
	_ = srv.Close()
	// Closed here, not only by srv.Close: Serve tracks its listener only
	// once its goroutine runs, and until then srv.Close leaves it open.
	_ = ln.Close()
	r.mu.Lock()
	if r.srv == nil && r.held == nil {
		r.held = holdPort(r.addr)
	}
	r.mu.Unlock()
	// Hijacked websocket connections are not closed by http.Server.Close.
	for _, c := range conns {
		_ = c.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for r.conns.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
}

// Close stops the relay for good, releasing every goroutine it started
// except khatru's hourly expiration ticker, which khatru never stops.
func (r *Relay) Close() {
	r.closeOne.Do(func() { close(r.closed) })
	r.Stop()
	r.mu.Lock()
	if r.held != nil {
		_ = r.held.Close()
		r.held = nil
	}
	r.mu.Unlock()
}

// Connections is the number of websocket connections currently open on the
// relay side (for leak tests).
func (r *Relay) Connections() int { return int(r.conns.Load()) }

// trackConn remembers raw connections so Stop can close hijacked websockets.
func (r *Relay) trackConn(c net.Conn, state http.ConnState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch state {
	case http.StateNew:
		r.rawConns[c] = struct{}{}
	case http.StateClosed:
		delete(r.rawConns, c)
	}
}

// handler serves websockets through khatru and NIP-11 ourselves, because
// go-nostr's nip11 document has no `self` field.
func (r *Relay) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("Upgrade") != "websocket" && strings.Contains(req.Header.Get("Accept"), "application/nostr+json") {
			r.serveNIP11(w, req)
			return
		}
		r.kr.ServeHTTP(w, req)
	})
}

// community is the relay's canonical authority: lowercase host[:port].
func (r *Relay) community() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.ToLower(r.addr)
}

// env is what authorities get from the relay.
func (r *Relay) env() Env {
	return Env{
		Self:      r.self,
		Sign:      func(evt *nostr.Event) error { return evt.Sign(r.secret) },
		Community: r.community(),
		Now:       nostr.Now,
		Query:     func(_ context.Context, f nostr.Filter) []*nostr.Event { return r.store.query(f) },
		Evict:     r.evict,
		Delete:    r.store.remove,
	}
}

var discardLog = log.New(io.Discard, "", 0)

// logf writes a diagnostic to Options.Log.
func (r *Relay) logf(format string, args ...any) {
	if r.opts.Log != nil {
		r.opts.Log.Printf(format, args...)
	}
}
