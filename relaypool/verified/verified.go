// Package verified marks Nostr events whose id and signature were checked,
// so that code downstream (the cache) can skip checking them again without
// trusting a bare *nostr.Event: an Event token can only be made by Check or
// Memo.Check, and it stops vouching as soon as the event is changed.
package verified

import (
	"sync"
	"sync/atomic"

	"github.com/nbd-wtf/go-nostr"
)

// Event is proof that an event's id is the hash of its content and its
// signature is valid, as of the check. The zero Event vouches for nothing.
type Event struct {
	evt *nostr.Event
	// id and sig as checked: Valid compares them, so a later change to the
	// signature, or to anything the id commits to, voids the token.
	id, sig string
}

// Event returns the checked event (nil for the zero token). Do not modify
// it: a modified event no longer passes Valid.
func (v Event) Event() *nostr.Event { return v.evt }

// Valid reports whether the token still vouches for its event: the event's
// signature is the one checked and its id still hashes its content. This
// re-hashes the event (microseconds) but does not redo the signature check
// (hundreds of microseconds).
func (v Event) Valid() bool {
	return v.evt != nil && v.evt.ID == v.id && v.evt.Sig == v.sig && v.evt.CheckID()
}

// Check verifies the id and the signature of evt.
func Check(evt *nostr.Event) (Event, bool) {
	if evt == nil || !evt.CheckID() {
		return Event{}, false
	}
	if ok, err := evt.CheckSignature(); err != nil || !ok {
		return Event{}, false
	}
	return Event{evt: evt, id: evt.ID, sig: evt.Sig}, true
}

// Memo is Check that runs the signature check once per (id, sig), however
// many copies of the event arrive and however concurrently: several relays
// return the same events at the same moment, and the signature check
// dominates reading them. The zero Memo is ready to use.
type Memo struct {
	mu      sync.Mutex
	results map[string]*outcome
	checks  atomic.Int64
}

// outcome is one (id, sig) check, shared by everyone who asked for it while
// it ran; ok is set before done is closed.
type outcome struct {
	done chan struct{}
	ok   bool
}

// Check is Check, remembering each (id, sig) pair's result. The id is still
// re-hashed for every copy: a copy with the same id and signature but other
// content must fail.
func (m *Memo) Check(evt *nostr.Event) (Event, bool) {
	if evt == nil || !evt.CheckID() {
		return Event{}, false
	}
	key := evt.ID + evt.Sig
	m.mu.Lock()
	if m.results == nil {
		m.results = map[string]*outcome{}
	}
	o, known := m.results[key]
	if !known {
		o = &outcome{done: make(chan struct{})}
		m.results[key] = o
	}
	m.mu.Unlock()
	if known {
		<-o.done
	} else {
		m.checks.Add(1)
		ok, err := evt.CheckSignature()
		o.ok = err == nil && ok
		close(o.done)
	}
	if !o.ok {
		return Event{}, false
	}
	return Event{evt: evt, id: evt.ID, sig: evt.Sig}, true
}

// SignatureChecks counts the signature checks Memo actually ran.
func (m *Memo) SignatureChecks() int64 { return m.checks.Load() }
