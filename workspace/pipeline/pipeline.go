// Package pipeline holds what the relay-authoritative client pipelines of
// workspace/projects (NIP-PC) and workspace/sections (NIP-SW) share: their
// typed errors, the next commands those errors suggest (as values, rendered
// by the caller), and the one function through which they publish.
package pipeline

import (
	"context"
	"encoding/json"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
)

// Class is what kind of outcome an Error is; the caller maps it to its
// exit code.
type Class int

const (
	// Failure is unexpected (a projection that verifies but cannot be opened).
	Failure Class = iota
	// Usage is an argument that does not fit what the relay holds.
	Usage
	// Refused is refused before signing, or by the relay: nothing committed.
	Refused
	// Incomplete is not enough evidence (a relay did not answer, nothing
	// found): nothing was published.
	Incomplete
	// Unverified is published, but the read-back did not confirm it.
	Unverified
)

// Error is a pipeline's refusal or failure, with what a caller needs to
// render it: a stable machine code, the message, structured details and the
// commands to run next.
type Error struct {
	Class Class
	// Code is the stable machine code ("not-authorized", "conflict", ...).
	Code    string
	Msg     string
	Details map[string]any
	Next    []suggest.Command
	// Err is the underlying cause, if any.
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// SignerError is a failure of the signer (none configured, locked, refused):
// the caller renders it like any other signer failure.
type SignerError struct{ Err error }

func (e *SignerError) Error() string { return e.Err.Error() }
func (e *SignerError) Unwrap() error { return e.Err }

// Signed wraps a signer failure; nil stays nil.
func Signed(err error) error {
	if err == nil {
		return nil
	}
	return &SignerError{Err: err}
}

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
