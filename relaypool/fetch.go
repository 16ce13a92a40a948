package relaypool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool/verified"
)

// Relay outcomes in RelayReport.Status.
const (
	StatusOK      = "ok"      // answered with EOSE
	StatusClosed  = "closed"  // refused with CLOSED; Reason has the relay's text
	StatusFailed  = "failed"  // could not connect, or the connection broke
	StatusTimeout = "timeout" // no EOSE within the timeout
)

var errPoolClosed = errors.New("relay pool is closed")

// RelayReport is what one relay did during one operation.
type RelayReport struct {
	URL    string `json:"url"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// Events counts the valid, matching events this relay returned
	// (including ones another relay also returned). After a discovery round
	// of a pool with DeferSignatures it also counts events whose id and
	// filter were checked but whose signature nothing needed checking.
	Events int `json:"events"`
	// Dropped counts events this relay returned that were rejected: wrong
	// id, bad signature, or matching none of the filters asked.
	Dropped int `json:"dropped"`
	// Forged are the ids of events this relay served with a signature that
	// does not verify although the id is the hash of the content: a forged
	// copy of a real or made-up event (counted in Dropped too). Another
	// relay's valid copy of the same id still counts; at most MaxForged
	// ids are kept, ForgedCount counts them all.
	Forged      []string `json:"forged,omitempty"`
	ForgedCount int      `json:"forged_count,omitempty"`
	// Capped: for a filter naming no author and no id, the relay returned
	// as many events as the filter's limit or at least CapFloor, the
	// answer of a relay that cuts answers (strfry: 500 per filter, newest
	// first) and says nothing of what it left out. Such an answer is not
	// complete evidence of that filter: what must be complete is asked by
	// author (discovery) or by id.
	Capped bool `json:"capped,omitempty"`
	// Answered is when the relay's EOSE arrived (zero when it did not):
	// the moment its answer stands for. Over several rounds it is the
	// earliest, the oldest part of what the relay said; Reask replaces it.
	Answered time.Time `json:"-"`
}

// FetchResult is the merged answer of every relay asked.
type FetchResult struct {
	// Events are deduplicated by id and verified (id, signature, filters),
	// newest first, ties by lowest id.
	Events []*nostr.Event `json:"events"`
	// Relays has one report per relay asked, in the order asked.
	Relays []RelayReport `json:"relays"`
	// Complete is true only if every relay asked answered with EOSE, and
	// at least one relay was asked (no relay is no evidence).
	Complete bool `json:"complete"`
	// Sources maps each event id to the relays that returned it.
	Sources map[string][]string `json:"sources"`

	// verified holds, by event id, the proof that Events were checked.
	verified map[string]verified.Event
	// pending holds, by id, events of a discovery round whose id and filter
	// were checked but whose signature waits for VerifyAuthors; they are
	// not in Events. Every distinct copy (by signature) is kept with the
	// relays that sent it, so a forged copy from one relay cannot stand
	// for the id and hide another relay's valid one.
	pending map[string][]*heldCopy

	// what Discover asked for, so a later round asks only for what is new
	askedA  map[string]bool
	askedE  map[string]bool
	filters []nostr.Filter
}

// Fetch sends ONE REQ carrying every filter to each relay, all relays in
// parallel, and waits for each relay's EOSE, CLOSED, failure or timeout.
func (p *Pool) Fetch(ctx context.Context, relays []string, filters ...nostr.Filter) *FetchResult {
	return p.fetch(ctx, relays, false, filters)
}

// fetch is Fetch; with lazy, events get their id and filter checked on
// arrival and wait in pending for VerifyAuthors to check their signature.
func (p *Pool) fetch(ctx context.Context, relays []string, lazy bool, filters []nostr.Filter) *FetchResult {
	relays = NormalizeRelays(relays)
	reports := make([]RelayReport, len(relays))
	found := make([][]verified.Event, len(relays))
	held := make([][]*nostr.Event, len(relays))
	p.each(relays, func(i int, url string) {
		reports[i], found[i], held[i] = p.fetchOne(ctx, url, filters, lazy)
	})
	res := &FetchResult{Relays: reports, Complete: len(relays) > 0, Sources: map[string][]string{}, verified: map[string]verified.Event{}}
	for i, evs := range found {
		if reports[i].Status != StatusOK {
			res.Complete = false
		}
		for _, v := range evs {
			e := v.Event()
			if _, dup := res.verified[e.ID]; !dup {
				res.verified[e.ID] = v
				res.Events = append(res.Events, e)
			}
			res.Sources[e.ID] = append(res.Sources[e.ID], relays[i])
		}
		for _, e := range held[i] {
			res.hold(e, relays[i])
			if !slices.Contains(res.Sources[e.ID], relays[i]) {
				res.Sources[e.ID] = append(res.Sources[e.ID], relays[i])
			}
		}
	}
	sortEvents(res.Events)
	return res
}

// sortEvents orders newest first; equal created_at by lowest id (NIP-01's
// replaceable tie rule), so output is deterministic.
func sortEvents(evs []*nostr.Event) {
	sort.Slice(evs, func(i, j int) bool { return graph.Newer(evs[i], evs[j]) })
}

// fetchOne runs one REQ (or, split under MaxREQBytes, several) against one
// relay; with lazy, events whose signature is not checked yet come back in
// held.
func (p *Pool) fetchOne(ctx context.Context, url string, filters []nostr.Filter, lazy bool) (rep RelayReport, events []verified.Event, held []*nostr.Event) {
	rep = RelayReport{URL: url}
	ctx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	c, err := p.conn(ctx, url)
	if err != nil {
		rep = failure(ctx, rep, err)
		p.debugf("answer %s: %s%s", url, rep.Status, reasonSuffix(rep.Reason))
		return rep, nil, nil
	}
	if p.opts.AuthFirst && p.opts.Auth != nil {
		if err := c.authenticateFirst(ctx, p.opts.Auth); err != nil {
			if ctx.Err() != nil {
				return failure(ctx, rep, err), nil, nil
			}
			rep.Status, rep.Reason = StatusClosed, cleanText("auth-required: authentication failed: "+err.Error())
			return rep, nil, nil
		}
	}
	// A request that would exceed MaxREQBytes goes as several, one after
	// another on the same connection; the relay answered only if it
	// answered every one.
	a := &answer{seen: map[string]bool{}, lazy: lazy, open: map[int]int{}}
	groups := splitREQ(filters, MaxREQBytes)
	if len(groups) == 0 {
		groups = [][]nostr.Filter{filters}
	}
	for _, group := range groups {
		a.group = openFilters(group)
		start := time.Now()
		p.debugf("REQ %s %s", url, filtersSummary(group))
		rep = p.reqOne(ctx, c, group, rep, a)
		p.debugf("answer %s: %s, %d event(s), %d dropped%s in %s%s", url, rep.Status, rep.Events, rep.Dropped,
			map[bool]string{true: ", capped"}[rep.Capped], time.Since(start).Round(time.Millisecond), reasonSuffix(rep.Reason))
		if rep.Status != StatusOK {
			break
		}
		for i, f := range group {
			if a.group[i] && a.open[i] >= capOf(f) {
				rep.Capped = true
			}
		}
		clear(a.open)
	}
	return rep, a.events, a.held
}

// CapFloor is the smallest answer to a filter naming no author and no id
// that counts as possibly cut by the relay (RelayReport.Capped): relays cap
// answers at a few hundred to a few thousand events per filter, and some
// lower; a repository's own events under one identifier are far fewer.
const CapFloor = 100

// capOf is the count at which an answer to f counts as cut.
func capOf(f nostr.Filter) int {
	if f.Limit > 0 && f.Limit < CapFloor {
		return f.Limit
	}
	return CapFloor
}

// openFilters marks the filters of group that name no author and no id.
func openFilters(group []nostr.Filter) map[int]bool {
	out := map[int]bool{}
	for i, f := range group {
		if len(f.Authors) == 0 && len(f.IDs) == 0 {
			out[i] = true
		}
	}
	return out
}

// answer collects one relay's events over the REQs of one operation.
type answer struct {
	// group marks the current REQ's filters naming no author and no id;
	// open counts, by their index, the events that matched them.
	group  map[int]bool
	open   map[int]int
	lazy   bool
	seen   map[string]bool // ids of events already accepted
	events []verified.Event
	held   []*nostr.Event // lazy: id and filter checked, signature not yet
}

// drop counts evt as dropped once per (id, sig, content) however many of
// the request's filters it was sent for; it reports whether it was new.
func (a *answer) drop(rep *RelayReport, evt *nostr.Event) bool {
	key := "x" + evt.ID + evt.Sig + evt.GetID()
	if a.seen[key] {
		return false
	}
	a.seen[key] = true
	rep.Dropped++
	return true
}

// countOpen counts evt for each filter naming no author and no id it matches.
func (a *answer) countOpen(filters []nostr.Filter, evt *nostr.Event) {
	for i := range a.group {
		if filters[i].Matches(evt) {
			a.open[i]++
		}
	}
}

// reqOne runs one REQ on c and adds what it returned to rep and a.
func (p *Pool) reqOne(ctx context.Context, c *conn, filters []nostr.Filter, rep RelayReport, a *answer) RelayReport {
	rep.Status, rep.Reason = "", ""
	s := c.subscribe()
	open := false
	defer func() { c.unsubscribe(s, open) }()
	if err := c.req(ctx, s, filters); err != nil {
		return failure(ctx, rep, err)
	}
	open = true
	triedAuth := false
	// handle processes one message; finished reports the REQ's outcome.
	handle := func(env nostr.Envelope) (finished bool) {
		switch e := env.(type) {
		case *nostr.EventEnvelope:
			evt := e.Event
			switch {
			case a.seen[evt.ID] && a.lazy:
				// a repeat (or another copy) is still one event from this
				// relay: its first copy is the one it stands by, so a relay
				// cannot make one id cost more than one signature check
			case a.lazy:
				if !nostr.Filters(filters).Match(&evt) || !evt.CheckID() {
					a.drop(&rep, &evt)
					break
				}
				a.seen[evt.ID] = true
				rep.Events++
				a.countOpen(filters, &evt)
				a.held = append(a.held, &evt)
			case a.seen[evt.ID]:
				// as above: one copy per id per relay
			default:
				if v, ok := p.verify(&evt, filters); !ok {
					if a.drop(&rep, &evt) && nostr.Filters(filters).Match(&evt) && evt.CheckID() {
						a.seen[evt.ID] = true
						rep.forged(evt.ID)
					}
				} else if !a.seen[evt.ID] {
					a.seen[evt.ID] = true
					rep.Events++
					a.countOpen(filters, &evt)
					a.events = append(a.events, v)
				}
			}
		case *nostr.EOSEEnvelope:
			rep.Status, rep.Answered = StatusOK, time.Now()
			return true
		case *nostr.ClosedEnvelope:
			open = false
			reason := cleanText(e.Reason)
			if isAuthRequired(e.Reason) && p.opts.Auth != nil && !triedAuth {
				triedAuth = true
				p.debugf("AUTH %s: the relay asked for NIP-42 authentication (%s)", c.url, reason)
				if err := c.authenticate(ctx, p.opts.Auth); err != nil {
					rep.Status, rep.Reason = StatusClosed, cleanText(fmt.Sprintf("%s (authentication failed: %v)", reason, err))
					return true
				}
				if err := c.req(ctx, s, filters); err != nil {
					rep = failure(ctx, rep, err)
					return true
				}
				open = true
				return false
			}
			rep.Status, rep.Reason = StatusClosed, reason
			return true
		}
		return false
	}
	for {
		select {
		case <-ctx.Done():
			return failure(ctx, rep, ctx.Err())
		case <-c.done:
			// The answer may have arrived just before the connection closed.
			for {
				select {
				case env := <-s.ch:
					if handle(env) {
						return rep
					}
				default:
					open = false
					return failure(ctx, rep, c.lostErr())
				}
			}
		case env := <-s.ch:
			if handle(env) {
				return rep
			}
		}
	}
}

// failure classifies an error as a timeout (our deadline passed) or a failure.
func failure(ctx context.Context, rep RelayReport, err error) RelayReport {
	var stuck *StuckError
	if errors.As(err, &stuck) && ctx.Err() == nil {
		rep.Status, rep.Reason = StatusTimeout, "no answer before the timeout (raise it with --timeout): an earlier request's connection to it never completed, so it was not dialled again"
		return rep
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		rep.Status, rep.Reason = StatusTimeout, "no answer before the timeout (raise it with --timeout)"
		return rep
	}
	rep.Status, rep.Reason = StatusFailed, cleanText(err.Error())
	return rep
}

// verify accepts an event only if its id is the hash of its content, its
// signature is valid and it matches at least one of the filters asked.
// Signature checks dominate fetch time and most events arrive from several
// relays at once, so the pool's memo checks each (id, sig) pair once, even
// when relays deliver copies concurrently: the id commits to the pubkey and
// content, so the same pair is the same valid event.
func (p *Pool) verify(evt *nostr.Event, filters []nostr.Filter) (verified.Event, bool) {
	if !nostr.Filters(filters).Match(evt) {
		return verified.Event{}, false
	}
	return p.verified.Check(evt)
}

// SignatureChecks counts the signature checks the pool ran: one per distinct
// (id, sig) pair it was sent, however many relays sent it.
func (p *Pool) SignatureChecks() int64 { return p.verified.SignatureChecks() }

// Verified returns the proof of verification of each of r.Events, in the
// same order, for stores that keep only verified events (cache.PutVerified).
// Events not in r.Events (say, appended by the caller) have no proof.
func (r *FetchResult) Verified(events []*nostr.Event) []verified.Event {
	out := make([]verified.Event, 0, len(events))
	for _, e := range events {
		if e == nil {
			continue
		}
		if v, ok := r.verified[e.ID]; ok && v.Event() == e {
			out = append(out, v)
		}
	}
	return out
}

// reasonSuffix is ": reason" for a debug line, or nothing.
func reasonSuffix(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}
