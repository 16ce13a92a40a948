package relaypool

import (
	"context"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// PublishReport is one relay's answer to one EVENT.
type PublishReport struct {
	URL     string `json:"url"`
	OK      bool   `json:"ok"`
	Message string `json:"message,omitempty"`
}

// Publish sends evt to every relay in parallel and reports each relay's OK
// (or why there was none). A relay that demands NIP-42 authentication is
// answered with Options.Auth, when set, and the event is sent once more.
func (p *Pool) Publish(ctx context.Context, relays []string, evt *nostr.Event) []PublishReport {
	relays = NormalizeRelays(relays)
	out := make([]PublishReport, len(relays))
	p.each(relays, func(i int, url string) {
		out[i] = p.publishOne(ctx, url, evt)
	})
	return out
}

func (p *Pool) publishOne(ctx context.Context, url string, evt *nostr.Event) PublishReport {
	rep := PublishReport{URL: url}
	ctx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	c, err := p.conn(ctx, url)
	if err != nil {
		rep.Message = describe(ctx, err)
		return rep
	}
	if p.opts.AuthFirst && p.opts.Auth != nil {
		if err := c.authenticateFirst(ctx, p.opts.Auth); err != nil {
			rep.Message = "auth-required: authentication failed: " + err.Error()
			return rep
		}
	}
	for attempt := 0; ; attempt++ {
		ok, err := c.send(ctx, evt.ID, &nostr.EventEnvelope{Event: *evt})
		if err != nil {
			rep.Message = describe(ctx, err)
			return rep
		}
		if !ok.OK && isAuthRequired(ok.Reason) && p.opts.Auth != nil && attempt == 0 {
			if err := c.authenticate(ctx, p.opts.Auth); err != nil {
				rep.Message = fmt.Sprintf("%s (authentication failed: %v)", ok.Reason, err)
				return rep
			}
			continue
		}
		rep.OK, rep.Message = ok.OK, ok.Reason
		return rep
	}
}

func describe(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "timeout: the relay did not answer in time (raise it with --timeout)"
	}
	return "error: " + err.Error()
}

// ReadBack asks every relay for the given event ids in one request each and
// returns, for each id, the relays that returned it (verified); an id no
// relay returned maps to an empty list. Relays that failed or timed out are
// in the returned FetchResult's reports.
func (p *Pool) ReadBack(ctx context.Context, relays []string, ids []string) (map[string][]string, *FetchResult) {
	res := p.Fetch(ctx, relays, nostr.Filter{IDs: ids})
	out := make(map[string][]string, len(ids))
	for _, id := range ids {
		out[id] = append([]string{}, res.Sources[id]...)
	}
	return out, res
}
