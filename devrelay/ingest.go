package devrelay

import (
	"context"
	"errors"
	"time"

	"github.com/fiatjaf/eventstore"
	"github.com/fiatjaf/khatru"
	"github.com/nbd-wtf/go-nostr"
)

// rejectEvent runs before khatru stores anything: it enforces NIP-42 when
// required and hands governed kinds to their authority, whose emitted events
// are stored and delivered here. A governed event itself is never stored.
func (r *Relay) rejectEvent(ctx context.Context, evt *nostr.Event) (bool, string) {
	r.events.Add(1)
	authed := khatru.GetAuthed(ctx)
	if r.opts.RequireAuth && authed == "" {
		return true, r.hostileReason(authRequired)
	}
	if drop := r.misbehaviour().DropEvent; drop != nil && drop(evt) {
		if ws := khatru.GetConnection(ctx); ws != nil {
			r.breakConnection(ws)
		}
		return true, "error: connection lost"
	}
	if hold := r.misbehaviour().HoldEvent; hold != nil && hold(evt) {
		select {
		case <-ctx.Done():
		case <-r.closed:
		}
		return true, "error: connection lost"
	}
	if refuse := r.misbehaviour().RefuseEvent; refuse != nil {
		if reason := refuse(evt); reason != "" {
			return true, r.hostileReason(reason)
		}
	}
	if err := r.route(ctx, authed, evt); err != nil {
		return true, r.hostileReason(err.Error())
	}
	return false, ""
}

// route gives a governed event to its authority; ungoverned events pass.
func (r *Relay) route(ctx context.Context, authed string, evt *nostr.Event) error {
	a, governed := r.authority[evt.Kind]
	if !governed {
		return nil
	}
	r.routing.Lock()
	defer r.routing.Unlock()
	emit, err := a.Ingest(ctx, r.env(), authed, evt)
	if err != nil {
		return err
	}
	for _, e := range emit {
		// The authority has committed: its state is authoritative even if a
		// derived event cannot be stored, and NIP-PC forbids reporting a
		// committed command as rolled back because publication failed. The
		// authority's reconciliation republishes it; the client sees the old
		// projection on read-back and reports the write as unconfirmed.
		if err := r.keep(e); err != nil {
			r.logf("authority committed %s but its kind %d event was not stored: %v", evt.ID, e.Kind, err)
		}
	}
	return nil
}

// storeEvent is khatru's store and replace hook for ungoverned events. On
// success it answers eventstore.ErrDupEvent, which khatru acknowledges with
// OK true while skipping its own broadcast: we have already delivered the
// event (fanout), and khatru's broadcast reads its listener table without a
// lock (a data race under -race).
func (r *Relay) storeEvent(ctx context.Context, evt *nostr.Event) error {
	if _, governed := r.authority[evt.Kind]; !governed {
		if release := r.misbehaviour().DelayRelease; release != nil {
			if d := release(evt); d > 0 {
				select {
				case <-time.After(d):
				case <-ctx.Done():
				}
			}
		}
		if err := r.keep(evt); err != nil {
			if r.misbehaviour().ControlChars {
				return errors.New(r.hostileReason(err.Error()))
			}
			return err
		}
	}
	return eventstore.ErrDupEvent
}

// keep stores evt under the relay's rules and delivers it live if it was new.
func (r *Relay) keep(evt *nostr.Event) error {
	stored, err := r.store.save(evt)
	if err != nil {
		return err
	}
	if stored {
		r.fanout(evt)
	}
	return nil
}

// Publish seeds evt as if a client with no NIP-42 identity had sent it: id
// and signature are checked, storage rules apply and governed kinds go to
// their authority; RequireAuth does not apply (this is not a connection).
func (r *Relay) Publish(evt *nostr.Event) error {
	return r.PublishAs("", evt)
}

// PublishAs is Publish for a client authenticated as authed.
func (r *Relay) PublishAs(authed string, evt *nostr.Event) error {
	if !evt.CheckID() {
		return errors.New("invalid: id is computed incorrectly")
	}
	if ok, _ := evt.CheckSignature(); !ok {
		return errors.New("invalid: signature is invalid")
	}
	if err := r.route(context.Background(), authed, evt); err != nil {
		return err
	}
	if _, governed := r.authority[evt.Kind]; governed || nostr.IsEphemeralKind(evt.Kind) {
		if !governed {
			r.fanout(evt)
		}
		return nil
	}
	return r.keep(evt)
}
