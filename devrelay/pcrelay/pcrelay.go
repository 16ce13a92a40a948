// Package pcrelay is the reference relay-side authority of NIP-PC for
// devrelay: it materializes owner-signed kind 30621 Project identities into
// an authoritative row per (community, owner, d) with a monotonic revision,
// applies kind 47010 related-channel changes serialized per coordinate with
// expected-revision checks and idempotent replay, turns owner NIP-09
// deletions into tombstones, and publishes the relay-signed kind 30623
// Project State. Clients may never submit kind 30623.
package pcrelay

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/projects"
)

// HomeChannels is where home-channel roles come from (grouprelay.Authority).
type HomeChannels interface {
	// Standing reports whether channel id of community is live and pubkey's
	// current roles there. A channel belongs to its community's relay.
	Standing(community, id, pubkey string) projects.ChannelStanding
}

// Options configure the authority.
type Options struct {
	// Groups answers home-channel roles; nil means no channel ever confers
	// authority, so every project is owner-managed.
	Groups HomeChannels
	// LeaveStateKind stops the authority from claiming kind 30623. devrelay
	// lets only one authority claim a kind, and NIP-SW allocates 30623 too:
	// set this when the NIP-SW authority already claims (and rejects client
	// submissions of) kind 30623.
	LeaveStateKind bool
}

// Authority is the NIP-PC state machine. Create it with New.
type Authority struct {
	opts Options

	// mu serializes every command; holding one lock for all coordinates is
	// a stronger form of the spec's per-coordinate serialization.
	mu       sync.Mutex
	rows     map[string]*row // community + "\x00" + coordinate
	accepted map[string]bool // community + "\x00" + id of accepted 47010 commands (idempotent replay)
}

// row is the authoritative state of one Project in one community.
type row struct {
	coord     projects.Coordinate
	revision  int64
	deleted   bool
	identity  *nostr.Event      // current owner-signed kind 30621
	doc       projects.Document // owner-controlled fields of the identity
	related   []string          // relational related-channel membership
	change    string            // event that produced revision
	deletedAt nostr.Timestamp   // newest accepted deletion's created_at
	projected nostr.Timestamp   // created_at of the last projection
	published string            // id of the last projection
}

// New returns an authority with no projects.
func New(opts Options) *Authority {
	return &Authority{opts: opts, rows: map[string]*row{}, accepted: map[string]bool{}}
}

var _ devrelay.Authority = (*Authority)(nil)

// Kinds: identities, change commands, deletions (to see owner deletions of
// identities; other deletions pass through untouched) and, unless left to
// NIP-SW, the relay-only kind 30623.
func (a *Authority) Kinds() []int {
	k := []int{projects.KindIdentity, projects.KindChange, nostr.KindDeletion}
	if !a.opts.LeaveStateKind {
		k = append(k, projects.KindState)
	}
	return k
}

// View returns every event unchanged: Project State is public.
func (a *Authority) View(_ devrelay.Env, _ string, evt *nostr.Event) *nostr.Event { return evt }

// Ingest applies one client event.
func (a *Authority) Ingest(_ context.Context, env devrelay.Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	emit, err := a.apply(env, authed, evt)
	if err != nil {
		return nil, err
	}
	return append(emit, a.republishMissing(env, emit)...), nil
}

// apply routes one client event to its rule.
func (a *Authority) apply(env devrelay.Env, authed string, evt *nostr.Event) ([]*nostr.Event, error) {
	switch evt.Kind {
	case projects.KindState:
		// nip-pc.md: "Client submission of kind:30623 MUST be rejected,
		// including an event whose signer happens to equal the configured
		// relay pubkey but which arrived through ordinary client ingest."
		return nil, fmt.Errorf("restricted: kind 30623 Project State is published by the relay only; submit a kind 47010 change instead")
	case projects.KindIdentity:
		return a.identity(env, evt)
	case projects.KindChange:
		return a.change(env, authed, evt)
	case nostr.KindDeletion:
		return a.deletion(env, evt)
	}
	return nil, fmt.Errorf("error: kind %d is not handled by the NIP-PC authority", evt.Kind)
}

func key(env devrelay.Env, c projects.Coordinate) string { return env.Community + "\x00" + c.String() }

// advance checks the revision can grow; overflow rejects the mutation.
func (r *row) advance() error {
	if r.revision == math.MaxInt64 {
		return fmt.Errorf("error: project %s has reached the largest revision", r.coord)
	}
	return nil
}

// nextProjectionTime is max(now, previous + 1); it fails when no greater
// timestamp can be represented.
func (r *row) nextProjectionTime(now nostr.Timestamp) (nostr.Timestamp, error) {
	if r.projected == math.MaxInt64 {
		return 0, fmt.Errorf("error: no projection timestamp after %d can be represented", r.projected)
	}
	if now <= r.projected {
		return r.projected + 1, nil
	}
	return now, nil
}
