// Package pipeline holds what the relay-authoritative client pipelines of
// workspace/projects (NIP-PC) and workspace/sections (NIP-SW) share: their
// typed errors, the next commands those errors suggest (as values, rendered
// by the caller), and the one function through which they publish.
package pipeline

import (
	"context"
	"encoding/json"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/relaypool"
)

// Class is what kind of outcome an Error is (failure.Class); the caller
// maps it to its exit code.
type Class = failure.Class

const (
	// Failure is unexpected (a projection that verifies but cannot be opened).
	Failure = failure.Unexpected
	// Usage is an argument that does not fit what the relay holds.
	Usage = failure.Usage
	// Refused is refused before signing, or by the relay: nothing committed.
	Refused = failure.Refused
	// Incomplete is not enough evidence (a relay did not answer, nothing
	// found): nothing was published.
	Incomplete = failure.Incomplete
	// Unverified is published, but the read-back did not confirm it.
	Unverified = failure.Unverified
)

// Error is a pipeline's refusal or failure, the one failure type of every
// pipeline (failure.Failure): a class, a stable machine code, the message,
// structured details and the commands to run next.
type Error = failure.Failure

// SignerError is a failure of the signer (none configured, locked, refused):
// the caller renders it like any other signer failure.
type SignerError = failure.SignerError

// Signed wraps a signer failure; nil stays nil.
func Signed(err error) error { return failure.Signed(err) }

// Publish submits evt to relay and reports the relay's OK. It is the only
// way the pipelines publish, so the caller decides how (PoolPublish, or a
// shared publish-and-read-back).
type Publish func(ctx context.Context, relay string, evt *nostr.Event) relaypool.PublishReport

// PoolPublish publishes through pool's Deliver, the one publish of every
// roster write, without its read-back: the authority relay turns a command
// into state, and the pipelines verify by that state.
func PoolPublish(pool *relaypool.Pool) Publish {
	return func(ctx context.Context, relay string, evt *nostr.Event) relaypool.PublishReport {
		ds := pool.Deliver(ctx, []string{relay}, evt, relaypool.DeliverOptions{NoReadBack: true}).Relays
		if len(ds) == 0 {
			return relaypool.PublishReport{URL: relay, Message: "error: not a relay URL"}
		}
		d := ds[0]
		return relaypool.PublishReport{URL: d.URL, OK: d.OK, Message: d.Message, Replied: d.Replied, Sent: d.Sent}
	}
}

// Relays is the read access the pipelines need (relaypool.Pool fits): a
// relay's NIP-11 document and a fetch.
type Relays interface {
	RelayInfo(ctx context.Context, url string) (*relaypool.RelayInfo, error)
	Fetch(ctx context.Context, relays []string, filters ...nostr.Filter) *relaypool.FetchResult
}

// Store is the local cache the pipelines keep verified relay-signed state
// and each relay's NIP-11 document in (the caller adapts its cache, for
// example roster's bbolt cache). Projection returns nil, nil when nothing
// is stored under key.
type Store interface {
	PutProjection(key string, evt *nostr.Event) error
	Projection(key string) (*nostr.Event, error)
	PutRelayInfo(url string, doc json.RawMessage) error
	// CachedSelf is the `self` of url's cached NIP-11 document.
	CachedSelf(url string) (self string, ok bool)
}
