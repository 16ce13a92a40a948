package relaypool

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// PublishReport is one relay's answer to one EVENT.
type PublishReport struct {
	URL     string `json:"url"`
	OK      bool   `json:"ok"`
	Message string `json:"message,omitempty"`
	// Replied: the relay answered with an OK message (true or false), as
	// opposed to failing or timing out.
	Replied bool `json:"-"`
	// Sent: the EVENT was written to the relay's connection, so the relay
	// may have stored it even when no OK came back (a timeout, an
	// interrupt, a connection lost after the write).
	Sent bool `json:"-"`
}

// Publish sends evt to every relay in parallel and reports each relay's OK
// (or why there was none). A relay that demands NIP-42 authentication is
// answered with Options.Auth, when set, and the event is sent once more.
func (p *Pool) Publish(ctx context.Context, relays []string, evt *nostr.Event) []PublishReport {
	return p.publish(ctx, relays, evt, nil)
}

// publish is Publish telling answered of each relay's report as it comes
// (from the relays' goroutines).
func (p *Pool) publish(ctx context.Context, relays []string, evt *nostr.Event, answered func(PublishReport)) []PublishReport {
	relays = NormalizeRelays(relays)
	out := make([]PublishReport, len(relays))
	p.each(relays, func(i int, url string) {
		out[i] = p.publishOne(ctx, url, evt)
		if answered != nil {
			answered(out[i])
		}
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
		p.debugf("EVENT %s kind %d id %s… not sent%s", url, evt.Kind, short(evt.ID), reasonSuffix(rep.Message))
		return rep
	}
	if p.opts.AuthFirst && p.opts.Auth != nil {
		if err := c.authenticateFirst(ctx, p.opts.Auth); err != nil {
			rep.Message = cleanText("auth-required: authentication failed: " + err.Error())
			return rep
		}
	}
	for attempt := 0; ; attempt++ {
		p.debugf("EVENT %s kind %d id %s…", url, evt.Kind, short(evt.ID))
		ok, written, err := c.send(ctx, evt.ID, &nostr.EventEnvelope{Event: *evt})
		rep.Sent = rep.Sent || written
		if err != nil {
			rep.Message = describe(ctx, err)
			return rep
		}
		if !ok.OK && isAuthRequired(ok.Reason) && p.opts.Auth != nil && attempt == 0 {
			p.debugf("AUTH %s: the relay asked for NIP-42 authentication (%s)", url, cleanText(ok.Reason))
			if err := c.authenticate(ctx, p.opts.Auth); err != nil {
				rep.Message = cleanText(fmt.Sprintf("%s (authentication failed: %v)", ok.Reason, err))
				return rep
			}
			continue
		}
		rep.OK, rep.Message, rep.Replied = ok.OK, cleanText(ok.Reason), true
		p.debugf("OK %s id %s…: accepted %v%s", url, short(evt.ID), ok.OK, reasonSuffix(rep.Message))
		return rep
	}
}

func describe(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "timeout: the relay did not answer in time (raise it with --timeout)"
	}
	return cleanText("error: " + err.Error())
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

// Delivered is one relay's answer to a published event and whether it
// returned the event when read back. It is the one JSON vocabulary of every
// command that publishes: "ok" is the relay's NIP-01 OK.
type Delivered struct {
	URL      string `json:"url"`
	OK       bool   `json:"ok"`
	Message  string `json:"message,omitempty"`
	ReadBack bool   `json:"read_back"`
	// SupersededBy is, for a replaceable or addressable event, the id of
	// the newer event of the same address (NIP-01 order) the relay served
	// on read-back instead: another edit won there. Not in the JSON of the
	// publishing commands' schemas (a field is only added in a new schema
	// version); membership reports it in its error's details.
	SupersededBy string `json:"-"`
	// Sent: the EVENT was written to this relay (PublishReport.Sent); it
	// may be stored there whatever OK says. Not in the JSON (see
	// SupersededBy); membership reports it after an interrupt.
	Sent bool `json:"-"`
	// Replied: the relay answered with an OK message (PublishReport.Replied).
	Replied bool `json:"-"`
	// Forged: on read-back the relay returned the event only with a
	// signature that does not verify. Not in the JSON (see SupersededBy).
	Forged bool `json:"-"`
}

// Delivery is the outcome of publishing one event to a set of relays.
type Delivery struct {
	Relays []Delivered
	// Accepted counts the relays that answered OK true.
	Accepted int
	// ReadBack is the read-back request's result; nil when none was made
	// (no relay accepted, or DeliverOptions.NoReadBack).
	ReadBack *FetchResult
}

// DeliverOptions adjust Deliver.
type DeliverOptions struct {
	// NoReadBack skips the read-back: a relay that turns a command into
	// state (a workspace or project authority) is checked by its state.
	NoReadBack bool
	// BeforeReadBack runs between publishing and reading back (a test
	// seam: silence a relay after it accepted).
	BeforeReadBack func()
	// ReadBack, when set, makes the read-back request in the pool's stead:
	// it asks relays for filters (the event by id and, for a replaceable or
	// addressable event, its address) in one request each and returns what
	// they answered. A write that re-reads the repository right after
	// publishing asks for that in the same request (membership, through
	// discovery.Again) instead of a round of its own; it may add filters,
	// never drop one. A nil result is a read-back nobody answered.
	ReadBack func(ctx context.Context, relays []string, filters []nostr.Filter) *FetchResult
	// Answered, when set, is told each relay's answer to the EVENT as it
	// arrives, from the publishing goroutines (the journal records each
	// relay's OK before the others have answered).
	Answered func(PublishReport)
}

// Deliver publishes evt to every relay and, once at least one accepted it,
// reads it back from each in one request, so every write checks what the
// relays really stored the same way. When every relay that replied refused
// it, a replaceable or addressable event is still read back by address, so
// a relay that refused it for a newer version says which (SupersededBy).
func (p *Pool) Deliver(ctx context.Context, relays []string, evt *nostr.Event, opts DeliverOptions) *Delivery {
	d := &Delivery{Relays: []Delivered{}}
	replied := false
	for _, r := range p.publish(ctx, relays, evt, opts.Answered) {
		d.Relays = append(d.Relays, Delivered{URL: r.URL, OK: r.OK, Message: r.Message, Sent: r.Sent, Replied: r.Replied})
		if r.OK {
			d.Accepted++
		}
		replied = replied || r.Replied
	}
	_, addressed := AddressFilter(evt)
	if opts.NoReadBack || d.Accepted == 0 && !(replied && addressed) {
		return d
	}
	if opts.BeforeReadBack != nil {
		opts.BeforeReadBack()
	}
	// The read-back asks, in the same request, for the latest event of the
	// address, so a relay keeping a newer edit says so.
	filters := []nostr.Filter{{IDs: []string{evt.ID}}}
	if f, ok := AddressFilter(evt); ok {
		filters = append(filters, f)
	}
	if ctx.Err() != nil {
		// Interrupted or past the deadline: nothing more is asked.
		return d
	}
	var res *FetchResult
	if opts.ReadBack != nil {
		res = opts.ReadBack(ctx, relays, filters)
	} else {
		res = p.Fetch(ctx, relays, filters...)
	}
	if res == nil {
		res = &FetchResult{Sources: map[string][]string{}}
	}
	d.ReadBack = res
	for i := range d.Relays {
		r := &d.Relays[i]
		r.ReadBack = slices.Contains(res.Sources[evt.ID], r.URL)
		for _, rr := range res.Relays {
			if rr.URL == r.URL && !r.ReadBack && slices.Contains(rr.Forged, evt.ID) {
				r.Forged = true
			}
		}
		if w := LatestOn(res, r.URL, evt); w != nil && graph.Newer(w, evt) {
			r.SupersededBy = w.ID
		}
	}
	return d
}

// AddressFilter asks for every event of evt's replaceable (kind, pubkey) or
// addressable (kind, pubkey, d) address; ok is false for other kinds.
func AddressFilter(evt *nostr.Event) (nostr.Filter, bool) {
	switch {
	case nostr.IsAddressableKind(evt.Kind):
		return nostr.Filter{Kinds: []int{evt.Kind}, Authors: []string{evt.PubKey}, Tags: nostr.TagMap{"d": {evt.Tags.GetD()}}}, true
	case nostr.IsReplaceableKind(evt.Kind):
		return nostr.Filter{Kinds: []int{evt.Kind}, Authors: []string{evt.PubKey}}, true
	}
	return nostr.Filter{}, false
}

// LatestOn is the latest event (NIP-01 order) of evt's address that relay
// returned in res, nil when it returned none.
func LatestOn(res *FetchResult, relay string, evt *nostr.Event) *nostr.Event {
	f, ok := AddressFilter(evt)
	if !ok || res == nil {
		return nil
	}
	var best *nostr.Event
	for _, e := range res.Events {
		if f.Matches(e) && slices.Contains(res.Sources[e.ID], relay) && (best == nil || graph.Newer(e, best)) {
			best = e
		}
	}
	return best
}

// SentTo are the relays the event was written to, in the delivery's
// order (whatever they answered).
func (d *Delivery) SentTo() []string {
	var out []string
	for _, r := range d.Relays {
		if r.Sent {
			out = append(out, r.URL)
		}
	}
	return out
}

// AcceptedBy are the relays that answered OK true, in the delivery's order.
func (d *Delivery) AcceptedBy() []string {
	var out []string
	for _, r := range d.Relays {
		if r.OK {
			out = append(out, r.URL)
		}
	}
	return out
}

// Problems lists, one line each, what keeps the delivery from being
// verified: a relay that refused, one that accepted but did not return the
// event, a read-back not every relay answered. Empty means verified.
func (d *Delivery) Problems() []string {
	var out []string
	for _, r := range d.Relays {
		if r.SupersededBy != "" {
			out = append(out, fmt.Sprintf("%s serves a newer event of the same address instead: %s", r.URL, r.SupersededBy))
		} else if !r.OK {
			out = append(out, fmt.Sprintf("%s did not accept it: %s", r.URL, r.Message))
		} else if r.Forged {
			out = append(out, fmt.Sprintf("%s accepted it but returned it on read-back only as a forged copy (bad signature)", r.URL))
		} else if !r.ReadBack {
			out = append(out, fmt.Sprintf("%s accepted it but did not return it on read-back", r.URL))
		}
	}
	if d.ReadBack != nil && !d.ReadBack.Complete {
		out = append(out, "not every relay answered the read-back")
	}
	return out
}
