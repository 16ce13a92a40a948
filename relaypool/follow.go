package relaypool

import (
	"context"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool/verified"
)

// FollowOptions say what Follow does with what the relay sends.
type FollowOptions struct {
	// Fresh reports whether an event id is new to the caller; an event it
	// returns false for is skipped before its signature is checked, so a
	// relay repeating one event costs an id hash, not a signature check.
	// nil: every event is new.
	Fresh func(id string) bool
	// Event receives every event whose id, signature and filter checked,
	// in the order the relay sent them, stored ones and live ones alike.
	Event func(verified.Event)
	// Open is called once the relay has answered the request (EOSE): the
	// subscription is live from then on.
	Open func()
}

// ErrFollowClosed is wrapped by Follow's error when the relay ended the
// subscription with CLOSED; the error's text carries the relay's reason.
var ErrFollowClosed = errors.New("the relay closed the subscription")

// Follow opens a connection of its own to url, sends one REQ with filters
// and keeps it open, handing each checked event to opts.Event, until ctx
// ends (nil is returned) or the relay closes the subscription or the
// connection (the error says why, in the relay's words cut to
// MaxReasonBytes). Dialing (and a NIP-42 exchange, as Fetch does it) is
// bounded by the pool's Timeout; the subscription itself has no deadline.
// The connection is not shared with the pool's other operations and is
// closed when Follow returns. A request over MaxREQBytes is refused: a live
// subscription is one REQ. A relay may take a "limit": 0 filter without
// asking for authentication and then withhold what the reader may not see
// anonymously, so Follow answers the relay's NIP-42 challenge before
// subscribing with AuthFirst, and also, when the pool has Auth, on a relay
// whose NIP-11 document says auth_required.
func (p *Pool) Follow(ctx context.Context, url string, filters []nostr.Filter, opts FollowOptions) error {
	url = firstOr(NormalizeRelays([]string{url}), url)
	if groups := splitREQ(filters, MaxREQBytes); len(groups) > 1 {
		return fmt.Errorf("a live subscription must be one request under %d bytes", MaxREQBytes)
	}
	dctx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	c, err := dial(dctx, url)
	if err != nil {
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer c.close()
	if p.authFirst(dctx, url) {
		if err := c.authenticateFirst(dctx, p.opts.Auth); err != nil {
			cancel()
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("authentication failed: %w", err)
		}
	}
	cancel()
	s := c.subscribe()
	open := false
	defer func() { c.unsubscribe(s, open) }()
	if err := c.req(ctx, s, filters); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	open = true
	triedAuth := false
	for {
		var env nostr.Envelope
		select {
		case <-ctx.Done():
			return nil
		case <-c.done:
			return c.lostErr()
		case env = <-s.ch:
		}
		switch e := env.(type) {
		case *nostr.EventEnvelope:
			evt := e.Event
			if !evt.CheckID() {
				continue
			}
			// The signature first (through the pool's memo, as every read
			// checks it): a forged copy must not mark the id as seen, or
			// the genuine event from another relay would be skipped as a
			// repeat.
			v, ok := p.verify(&evt, filters)
			if !ok || (opts.Fresh != nil && !opts.Fresh(evt.ID)) {
				continue
			}
			if opts.Event != nil {
				opts.Event(v)
			}
		case *nostr.EOSEEnvelope:
			if opts.Open != nil {
				opts.Open()
			}
		case *nostr.ClosedEnvelope:
			open = false
			if isAuthRequired(e.Reason) && p.opts.Auth != nil && !triedAuth {
				triedAuth = true
				actx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
				err := c.authenticate(actx, p.opts.Auth)
				cancel()
				if err != nil {
					return fmt.Errorf("%w: %s (authentication failed: %v)", ErrFollowClosed, cleanText(e.Reason), err)
				}
				if err := c.req(ctx, s, filters); err != nil {
					return err
				}
				open = true
				continue
			}
			return fmt.Errorf("%w: %s", ErrFollowClosed, cleanText(e.Reason))
		}
	}
}

func firstOr(list []string, or string) string {
	if len(list) > 0 {
		return list[0]
	}
	return or
}

// authFirst reports whether Follow authenticates before subscribing to
// url: always with AuthFirst; with Auth alone when the relay's NIP-11
// limitation says auth_required (a read would have been refused with
// auth-required and answered it; a "limit": 0 subscription is not
// refused, only starved).
func (p *Pool) authFirst(ctx context.Context, url string) bool {
	if p.opts.Auth == nil {
		return false
	}
	if p.opts.AuthFirst {
		return true
	}
	info, err := p.RelayInfo(ctx, url)
	return err == nil && info.Limitation != nil && info.Limitation.AuthRequired
}
