package relaypool

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
)

// MaxForged bounds the forged ids one relay report keeps (ForgedCount
// counts all of them): a hostile relay chooses how many it sends.
const MaxForged = 16

// heldCopy is one copy of a pending event (its signature not checked yet)
// and the relays that sent exactly this copy.
type heldCopy struct {
	evt    *nostr.Event
	relays []string
}

// hold adds relay's copy of e to the pending copies of its id: a copy with
// a signature already held gains the relay, another signature is a copy of
// its own.
func (r *FetchResult) hold(e *nostr.Event, relay string) {
	if _, done := r.verified[e.ID]; done {
		return
	}
	if r.pending == nil {
		r.pending = map[string][]*heldCopy{}
	}
	for _, c := range r.pending[e.ID] {
		if c.evt.Sig == e.Sig {
			if !slices.Contains(c.relays, relay) {
				c.relays = append(c.relays, relay)
			}
			return
		}
	}
	r.pending[e.ID] = append(r.pending[e.ID], &heldCopy{evt: e, relays: []string{relay}})
}

// forged records that this relay served a forged copy of id.
func (rep *RelayReport) forged(id string) {
	rep.ForgedCount++
	if len(rep.Forged) < MaxForged && !slices.Contains(rep.Forged, id) {
		rep.Forged = append(rep.Forged, id)
	}
}

// first is a pending id's first copy, the one callers choose by (every
// copy has the same id, so the same content).
func first(copies []*heldCopy) *nostr.Event { return copies[0].evt }

// settleCopies checks the signatures of id's pending copies, each distinct
// (id, sig) once, until one verifies; that copy stands for the id and the
// relays that sent it are its sources. Each relay that sent only copies
// that failed has the event counted as dropped and the id recorded as
// forged by it. It reports whether a copy verified.
func (p *Pool) settleCopies(res *FetchResult, id string) bool {
	copies := res.pending[id]
	delete(res.pending, id)
	var good *heldCopy
	for _, c := range copies {
		if v, ok := p.verified.Check(c.evt); ok {
			good = c
			res.verified[id] = v
			res.Events = append(res.Events, c.evt)
			break
		}
	}
	var sources []string
	if good != nil {
		sources = good.relays
	}
	for _, c := range copies {
		if c == good {
			continue
		}
		if good != nil {
			// A copy not checked (a valid one was found first) may still be
			// forged: check it, once per (id, sig), to say who sent a forgery.
			if _, ok := p.verified.Check(c.evt); ok {
				for _, u := range c.relays {
					if !slices.Contains(sources, u) {
						sources = append(sources, u)
					}
				}
				continue
			}
		}
		for _, u := range c.relays {
			if slices.Contains(sources, u) {
				continue
			}
			for i := range res.Relays {
				if res.Relays[i].URL == u {
					res.Relays[i].Events--
					res.Relays[i].Dropped++
					res.Relays[i].forged(id)
				}
			}
		}
	}
	if len(sources) == 0 {
		delete(res.Sources, id)
	} else {
		res.Sources[id] = sources
	}
	return good != nil
}

// Holds reports whether res holds an event with this id, verified or
// waiting for its signature check.
func (r *FetchResult) Holds(id string) bool {
	if _, ok := r.verified[id]; ok {
		return true
	}
	_, ok := r.pending[id]
	return ok
}

// PendingAnnouncementAuthors are, sorted, at most limit distinct authors of
// res's pending (signature not checked) kind 30617 events for identifier
// other than those in skip: the same-identifier announcements nobody
// reached, whose relays a write may ask as evidence only.
func (r *FetchResult) PendingAnnouncementAuthors(identifier string, skip map[string]bool, limit int) []string {
	seen := map[string]bool{}
	var out []string
	for _, copies := range r.pending {
		e := first(copies)
		if e.Kind != 30617 || skip[e.PubKey] || seen[e.PubKey] || e.Tags.GetD() != identifier {
			continue
		}
		seen[e.PubKey] = true
		out = append(out, e.PubKey)
	}
	slices.Sort(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
