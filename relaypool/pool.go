// Package relaypool talks to Nostr relays for roster: one REQ per relay with
// every filter, all relays in parallel, a per-relay account of what happened
// (EOSE, CLOSED with reason, failure, timeout), id- signature- and
// filter-checked events, NIP-42 answers, publishing with per-relay OKs,
// read-back verification and NIP-11 documents including `self`.
package relaypool

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/relayurl"
	"github.com/roster-cli/roster/relaypool/verified"
)

// DefaultTimeout bounds each relay's part of one operation when
// Options.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// writeTimeout bounds a single websocket write (a CLOSE on the way out).
const writeTimeout = 2 * time.Second

// Options configure a Pool.
type Options struct {
	// Timeout bounds each relay's part of one operation (connect, request,
	// answer); DefaultTimeout when zero.
	Timeout time.Duration
	// Auth signs NIP-42 auth events (kind 22242: set PubKey, ID and Sig).
	// nil means there is no signer: relays that demand authentication are
	// reported as closed with an auth-required reason.
	Auth func(ctx context.Context, evt *nostr.Event) error
	// Progress, when set, is called after each relay of an operation finishes.
	Progress func(done, total int)
	// AuthFirst authenticates every connection with Auth before its first
	// request when the relay sends a NIP-42 challenge, instead of only when
	// a relay refuses with auth-required. Relays whose answers depend on the
	// reader (NIP-SW projections, NIP-29 groups) withhold events from an
	// anonymous REQ without refusing it. A relay that sends no challenge
	// within AuthWait is read anonymously.
	AuthFirst bool
	// Debug, when set, receives one line per request sent and per answer
	// (roster --debug): the relay, the filters in a few words, how the
	// relay answered and how long it took; for a publish the event's kind
	// and id and the relay's OK. Never content, signatures or secrets.
	Debug func(line string)
}

// AuthWait bounds how long AuthFirst waits for a relay's challenge. Relays
// that support NIP-42 send it as soon as the connection opens.
const AuthWait = time.Second

// Pool keeps at most one connection per relay and reuses it across
// operations until Close.
type Pool struct {
	opts Options
	http *http.Client // NIP-11; its idle connections are closed by Close

	verified verified.Memo // each (id, sig) pair's signature check, run once

	inflight, peak atomic.Int32 // relays being talked to now, and the most at once
	deferSigs      atomic.Bool  // DeferSignatures

	mu    sync.Mutex
	conns map[string]*dialing
	// stuck are relays whose dial used up an operation's timeout (the
	// connection or its websocket handshake never completed): the pool
	// does not dial them again, so such a relay costs one timeout per
	// command, not one per operation (the profiles, a follow-up round).
	stuck map[string]error
	// infos are the NIP-11 documents this pool read (RelayInfo), by
	// normalized URL: a relay's document is asked for once per command,
	// however many reconnects, re-reads and verifications need it.
	infos  map[string]*RelayInfo
	closed bool
}

// StuckError is a relay this pool gave up dialling: an earlier operation's
// dial took the whole timeout without completing the connection.
type StuckError struct{ Err error }

func (e *StuckError) Error() string {
	return "did not complete the connection (the websocket handshake) within the timeout, so it is not dialled again by this command"
}

func (e *StuckError) Unwrap() error { return e.Err }

// dialing is a connection being established or established; concurrent
// operations on one relay share it.
type dialing struct {
	ready chan struct{}
	c     *conn
	err   error
}

// New returns an empty pool.
func New(opts Options) *Pool {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	return &Pool{opts: opts, conns: map[string]*dialing{}, http: &http.Client{Transport: transport}}
}

// Close closes every connection and waits for their goroutines to stop. The
// pool must not be used afterwards.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	all := make([]*dialing, 0, len(p.conns))
	for _, d := range p.conns {
		all = append(all, d)
	}
	clear(p.conns)
	p.mu.Unlock()
	p.http.CloseIdleConnections()
	for _, d := range all {
		<-d.ready
		if d.c != nil {
			d.c.close()
		}
	}
}

// conn returns a live connection to url, dialing it if needed.
func (p *Pool) conn(ctx context.Context, url string) (*conn, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errPoolClosed
	}
	if err := p.stuck[url]; err != nil {
		p.mu.Unlock()
		return nil, err
	}
	d := p.conns[url]
	if d != nil {
		select {
		case <-d.ready:
			if d.err != nil || !d.c.alive() {
				if d.c != nil {
					go d.c.close()
				}
				d = nil
			}
		default:
		}
	}
	if d == nil {
		d = &dialing{ready: make(chan struct{})}
		p.conns[url] = d
		p.mu.Unlock()
		d.c, d.err = dial(ctx, url)
		if d.err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			d.err = &StuckError{Err: d.err}
			p.mu.Lock()
			if p.stuck == nil {
				p.stuck = map[string]error{}
			}
			p.stuck[url] = d.err
			p.mu.Unlock()
		}
		close(d.ready)
		if d.err != nil {
			p.forget(url, d)
		}
		return d.c, d.err
	}
	p.mu.Unlock()
	select {
	case <-d.ready:
		return d.c, d.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *Pool) forget(url string, d *dialing) {
	p.mu.Lock()
	if p.conns[url] == d {
		delete(p.conns, url)
	}
	p.mu.Unlock()
}

// NormalizeRelays normalizes relay URLs (relayurl's Shorthand reading: ws/wss
// scheme, lowercase host, no trailing slash), drops duplicates, and keeps
// first-seen order. A value that is not a relay URL is not dialled either:
// the settings (--relay, ROSTER_RELAYS, config.yaml) and coordinate hints are
// refused before they get here (settings.CheckRelay, gitstate), and event
// URLs are counted as ignored (discovery.RelayURL), so what this leaves out
// was said already.
func NormalizeRelays(urls []string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(urls))
	for _, u := range urls {
		n, err := relayurl.Parse(u, relayurl.Shorthand)
		if err != nil || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}

// MaxConcurrent bounds how many relays one operation talks to at once
// (dialing, requesting, publishing); the others wait for a free slot. A relay
// list is partly chosen by others (announcements, hints), so its length must
// not set the number of sockets and goroutines open at one time.
const MaxConcurrent = 16

// each runs fn for every relay, at most MaxConcurrent at once, and reports
// progress.
func (p *Pool) each(relays []string, fn func(i int, url string)) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	slots := make(chan struct{}, MaxConcurrent)
	for i, u := range relays {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			n := p.inflight.Add(1)
			for {
				peak := p.peak.Load()
				if n <= peak || p.peak.CompareAndSwap(peak, n) {
					break
				}
			}
			fn(i, u)
			p.inflight.Add(-1)
			if p.opts.Progress != nil {
				mu.Lock()
				done++
				p.opts.Progress(done, len(relays))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
