package relaypool

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
)

// Fresh is a pool constructor as the write pipelines' relays: each Deliver
// and Reask opens its own pool with it and closes it after, so one
// operation's connections (and the relays it gave up dialling) never carry
// into the next. *Pool has the same two methods for a caller that wants
// one pool throughout.
type Fresh func() *Pool

// Deliver publishes evt to relays on a pool of its own (Pool.Deliver).
func (f Fresh) Deliver(ctx context.Context, relays []string, evt *nostr.Event, opts DeliverOptions) *Delivery {
	p := f()
	defer p.Close()
	return p.Deliver(ctx, relays, evt, opts)
}

// Reask asks relays of prev again on a pool of its own (Pool.Reask).
func (f Fresh) Reask(ctx context.Context, prev *FetchResult, relays []string) *FetchResult {
	p := f()
	defer p.Close()
	return p.Reask(ctx, prev, relays)
}
