// Package devrelay is a khatru relay for tests and `roster dev relay`: NIP-01
// addressable replacement, NIP-09 deletions, NIP-11 with `self`, optional NIP-42,
// and pluggable reference relay-side authorities for NIP-SW, NIP-PC and NIP-29.
package devrelay

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
)

// Authority is one spec's relay-side state machine (NIP-SW workspaces, NIP-PC
// projects, NIP-29 groups). The relay core owns sockets, storage and delivery;
// an authority owns the rules. Implementations live in their own packages
// (devrelay/swrelay, devrelay/pcrelay, ...) and are passed in Options.
type Authority interface {
	// Kinds lists the client-submitted kinds this authority ingests. Events of
	// these kinds never reach ordinary storage: Ingest decides.
	Kinds() []int
	// Ingest applies a verified client event. authed is the connection's
	// NIP-42 pubkey ("" if not authenticated). It returns the relay-signed
	// events to store (with addressable replacement) and broadcast, or an error
	// whose text becomes the OK message; use a NIP-01 prefix such as
	// "auth-required: ", "restricted: ", "invalid: ", "duplicate: ", "conflict: ".
	Ingest(ctx context.Context, env Env, authed string, evt *nostr.Event) (emit []*nostr.Event, err error)
	// View decides what reader (NIP-42 pubkey, "" if none) receives of evt on
	// every delivery surface (REQ results, live fan-out, lookup by id). It returns
	// evt itself, a reader-specific synthesized event (signed with env.Sign), or
	// nil to withhold it. Events of kinds the authority does not govern are
	// returned unchanged.
	View(env Env, reader string, evt *nostr.Event) *nostr.Event
}

// Env is what the relay core lends an authority.
type Env struct {
	// Self is the relay's pubkey, published in NIP-11 `self`.
	Self string
	// Sign signs evt with the relay's key (sets PubKey, ID, Sig).
	Sign func(evt *nostr.Event) error
	// Community is the relay's canonical authority (lowercase host[:port]).
	Community string
	// Now returns the relay clock in seconds.
	Now func() nostr.Timestamp
	// Query reads the relay's ordinary store.
	Query func(ctx context.Context, f nostr.Filter) []*nostr.Event
	// Evict closes every live subscription of pubkey now (revocation).
	Evict func(pubkey string)
	// Delete removes the stored event with this id and refuses it if it is
	// published again (a moderator's deletion, NIP-29 kind 9005).
	Delete func(id string)
}

// IDLookup is implemented by authorities whose View synthesizes
// reader-specific events: their ids exist in no store, so a REQ by id asks
// the authority. LookupID returns the event with exactly that id that reader
// may see, or nil.
type IDLookup interface {
	LookupID(env Env, reader, id string) *nostr.Event
}
