package relaypool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// conn is one websocket to one relay, shared by every operation of a Pool.
// We drive the websocket ourselves (socket, not go-nostr's Connection: see
// there) instead of nostr.Relay because nostr.Relay silently drops events
// that fail its own filter and signature checks, so per-relay drop counts
// and CLOSED reasons would be invisible.
type conn struct {
	url    string
	ws     *socket
	ctx    context.Context // canceled when the connection is closed
	cancel context.CancelFunc
	done   chan struct{} // closed when the reader has stopped
	err    error         // why the reader stopped; read only after done

	wmu sync.Mutex // one writer at a time

	mu        sync.Mutex
	subs      map[string]*subscription
	oks       map[string]chan nostr.OKEnvelope
	challenge string
	// challenged is closed when the first NIP-42 challenge arrives.
	challenged   chan struct{}
	challengeOne sync.Once

	authMu   sync.Mutex // one NIP-42 exchange at a time
	authedAs string
	// noChallenge: an AuthFirst wait on this connection ended without a
	// challenge (authenticateFirst).
	noChallenge atomic.Bool
}

// subscription receives the EVENT, EOSE and CLOSED messages of one REQ id.
type subscription struct {
	id   string
	ch   chan nostr.Envelope
	stop chan struct{}
}

var subCounter atomic.Int64

// NotWebsocketError is a URL whose server answered the websocket handshake
// with a plain HTTP response (a web page, a 404): a web server, not a
// relay. Its message is in plain words; Unwrap is the library's error.
type NotWebsocketError struct {
	Status int // the HTTP status it answered with
	Err    error
}

func (e *NotWebsocketError) Error() string {
	return fmt.Sprintf("answered HTTP %d, not a websocket: is this a relay URL?", e.Status)
}

func (e *NotWebsocketError) Unwrap() error { return e.Err }

// handshakeStatus is the websocket library's wording of a non-101 answer,
// compiled on first use, not at every start-up.
var handshakeStatus = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`expected handshake response status code 101 but got ([0-9]{3})`)
})

// UnreachableError is a relay address nothing could connect to, in plain
// words: nothing listens there, the host name does not resolve, or the
// connection timed out. Unwrap is the library's error.
type UnreachableError struct {
	Why string
	Err error
}

func (e *UnreachableError) Error() string { return e.Why }

func (e *UnreachableError) Unwrap() error { return e.Err }

// dialError words a failed connection for the people who read it.
func dialError(err error) error {
	if m := handshakeStatus().FindStringSubmatch(err.Error()); m != nil {
		status, _ := strconv.Atoi(m[1])
		return &NotWebsocketError{Status: status, Err: err}
	}
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return &UnreachableError{Why: "connection refused: nothing listens at this address (is the relay running, and is the port right?)", Err: err}
	case errors.As(err, &dns) && dns.IsNotFound:
		return &UnreachableError{Why: "no such host: the relay's host name does not resolve (check it for a typo)", Err: err}
	case errors.As(err, &ne) && ne.Timeout():
		return &UnreachableError{Why: "timed out connecting: the relay did not accept a connection in time", Err: err}
	}
	return err
}

func dial(ctx context.Context, url string) (*conn, error) {
	ws, err := dialSocket(ctx, url)
	if err != nil {
		return nil, dialError(err)
	}
	cctx, cancel := context.WithCancel(context.Background())
	c := &conn{
		url: url, ws: ws, ctx: cctx, cancel: cancel, done: make(chan struct{}),
		subs: map[string]*subscription{}, oks: map[string]chan nostr.OKEnvelope{},
		challenged: make(chan struct{}),
	}
	go c.read()
	return c, nil
}

// close tears the websocket down and waits for the reader to stop (the
// reader closes the websocket as it stops, see read).
func (c *conn) close() {
	c.cancel()
	<-c.done
}

func (c *conn) alive() bool { return c.ctx.Err() == nil }

// read dispatches the relay's messages until the websocket fails or the
// conn is closed. Whichever ends it, the websocket is closed at once as it
// returns: the library closes it by itself only when a read it is waiting
// in is cancelled, not after a read error (the relay dropped the TCP
// connection) nor when close cancels between two reads; and a handshake
// would wait on a relay that may never answer.
func (c *conn) read() {
	defer close(c.done)
	defer c.ws.closeNow()
	defer c.cancel()
	var buf bytes.Buffer
	parser := nostr.NewMessageParser()
	for {
		buf.Reset()
		if err := c.ws.readMessage(c.ctx, &buf); err != nil {
			c.err = err
			return
		}
		// An unparseable message is skipped like an unknown one: the REQ
		// it might have belonged to ends by EOSE, CLOSED or the timeout.
		if env, err := parser.ParseMessage(buf.String()); err == nil {
			c.dispatch(env)
		}
	}
}

func (c *conn) dispatch(env nostr.Envelope) {
	var subID string
	switch e := env.(type) {
	case *nostr.EventEnvelope:
		if e.SubscriptionID != nil {
			subID = *e.SubscriptionID
		}
	case *nostr.EOSEEnvelope:
		subID = string(*e)
	case *nostr.ClosedEnvelope:
		subID = e.SubscriptionID
	case *nostr.OKEnvelope:
		c.mu.Lock()
		ch := c.oks[e.EventID]
		c.mu.Unlock()
		if ch != nil {
			select {
			case ch <- *e:
			default:
			}
		}
		return
	case *nostr.AuthEnvelope:
		if e.Challenge != nil {
			c.mu.Lock()
			c.challenge = *e.Challenge
			c.mu.Unlock()
			c.challengeOne.Do(func() { close(c.challenged) })
		}
		return
	default:
		return // NOTICE, COUNT, unparseable: nothing waits for them
	}
	c.mu.Lock()
	s := c.subs[subID]
	c.mu.Unlock()
	if s == nil {
		return
	}
	select {
	case s.ch <- env:
	case <-s.stop:
	case <-c.ctx.Done():
	}
}

func (c *conn) write(ctx context.Context, msg []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if !c.alive() {
		return c.lostErr()
	}
	return c.ws.writeMessage(ctx, msg)
}

func (c *conn) lostErr() error {
	select {
	case <-c.done:
		if c.err != nil {
			return fmt.Errorf("connection lost: %v", c.err)
		}
	default:
	}
	return errors.New("connection closed")
}

// subscribe registers a subscription id; req sends (or re-sends) its REQ.
func (c *conn) subscribe() *subscription {
	s := &subscription{id: fmt.Sprintf("roster:%d", subCounter.Add(1)), ch: make(chan nostr.Envelope, 64), stop: make(chan struct{})}
	c.mu.Lock()
	c.subs[s.id] = s
	c.mu.Unlock()
	return s
}

func (c *conn) req(ctx context.Context, s *subscription, filters []nostr.Filter) error {
	msg, err := nostr.ReqEnvelope{SubscriptionID: s.id, Filters: filters}.MarshalJSON()
	if err != nil {
		return err
	}
	return c.write(ctx, msg)
}

// unsubscribe forgets s and, if the relay still holds it open, sends CLOSE.
func (c *conn) unsubscribe(s *subscription, sendClose bool) {
	c.mu.Lock()
	delete(c.subs, s.id)
	c.mu.Unlock()
	close(s.stop)
	if sendClose && c.alive() {
		msg, _ := nostr.CloseEnvelope(s.id).MarshalJSON()
		ctx, cancel := context.WithTimeout(c.ctx, writeTimeout)
		_ = c.write(ctx, msg)
		cancel()
	}
}

// send writes an EVENT or AUTH envelope and waits for the relay's OK;
// written reports whether the envelope reached the connection.
func (c *conn) send(ctx context.Context, id string, env nostr.Envelope) (ok nostr.OKEnvelope, written bool, err error) {
	ch := make(chan nostr.OKEnvelope, 1)
	c.mu.Lock()
	c.oks[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.oks, id)
		c.mu.Unlock()
	}()
	msg, err := env.MarshalJSON()
	if err != nil {
		return nostr.OKEnvelope{}, false, err
	}
	if err := ctx.Err(); err != nil {
		return nostr.OKEnvelope{}, false, err
	}
	if !c.alive() {
		return nostr.OKEnvelope{}, false, c.lostErr()
	}
	if err := c.write(ctx, msg); err != nil {
		// A write that failed part way may still have reached the relay:
		// count it as sent, never as certainly not.
		return nostr.OKEnvelope{}, true, err
	}
	select {
	case ok := <-ch:
		return ok, true, nil
	case <-ctx.Done():
		return nostr.OKEnvelope{}, true, ctx.Err()
	case <-c.done:
		return nostr.OKEnvelope{}, true, c.lostErr()
	}
}

// authenticate answers the relay's latest NIP-42 challenge with a kind 22242
// event signed by sign. It is a no-op once this connection is authenticated.
func (c *conn) authenticate(ctx context.Context, sign func(context.Context, *nostr.Event) error) error {
	c.authMu.Lock()
	defer c.authMu.Unlock()
	if c.authedAs != "" {
		return nil
	}
	// Some relays send the challenge only after refusing; wait for it.
	select {
	case <-c.challenged:
	case <-ctx.Done():
		return errors.New("the relay asked for authentication without sending a challenge")
	case <-c.done:
		return c.lostErr()
	}
	c.mu.Lock()
	challenge := c.challenge
	c.mu.Unlock()
	evt := nostr.Event{
		CreatedAt: nostr.Now(),
		Kind:      nostr.KindClientAuthentication,
		Tags:      nostr.Tags{{"relay", c.url}, {"challenge", challenge}},
	}
	if err := sign(ctx, &evt); err != nil {
		return fmt.Errorf("signing the NIP-42 auth event: %w", err)
	}
	ok, _, err := c.send(ctx, evt.ID, &nostr.AuthEnvelope{Event: evt})
	if err != nil {
		return err
	}
	if !ok.OK {
		return fmt.Errorf("relay refused authentication: %s", ok.Reason)
	}
	c.authedAs = evt.PubKey
	return nil
}

func isAuthRequired(reason string) bool { return strings.HasPrefix(reason, "auth-required:") }

// authenticateFirst runs Options.AuthFirst: it authenticates once the
// challenge arrives, or does nothing if none comes within AuthWait. The
// wait is the connection's, not each operation's: once a connection waited
// without a challenge, later operations on it do not wait again (a relay
// that sends none would otherwise cost AuthWait per request). And it never
// takes more than half of what is left of the operation's deadline, so a
// short --timeout still leaves the request its time.
func (c *conn) authenticateFirst(ctx context.Context, sign func(context.Context, *nostr.Event) error) error {
	if c.noChallenge.Load() {
		select {
		case <-c.challenged: // it came later after all
		default:
			return nil
		}
	}
	d := AuthWait
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl)/2)
	}
	wait, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	select {
	case <-c.challenged:
	case <-wait.Done():
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c.noChallenge.Store(true)
		return nil
	case <-c.done:
		return c.lostErr()
	}
	return c.authenticate(ctx, sign)
}
