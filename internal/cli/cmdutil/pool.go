package cmdutil

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/termtext"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
)

// Auth is how a relay pool answers NIP-42: the one choice a command makes
// about a pool (Factory.Pool); the timeout is always --timeout.
type Auth int

const (
	// AuthLazy answers a relay's challenge with the invocation's signer,
	// opened only when a relay asks, so a read never prompts otherwise;
	// without a signer the relay is reported as closed: auth-required. A
	// write has opened the signer already: it is the same signer.
	AuthLazy Auth = iota
	// AuthFirst authenticates every connection before its first request
	// (relaypool.Options.AuthFirst): relays whose answers depend on the
	// reader (NIP-SW projections, NIP-29 groups).
	AuthFirst
	// AuthNone never authenticates.
	AuthNone
)

// Pool is a relay pool with --timeout and the auth policy; progress, when
// given, is told after each relay of an operation finishes. The caller
// closes it.
func (a *Factory) Pool(auth Auth, progress ...func(done, total int)) *relaypool.Pool {
	o := relaypool.Options{Timeout: a.Opts.Timeout}
	switch auth {
	case AuthLazy:
		o.Auth = a.AuthSigner
	case AuthFirst:
		o.Auth, o.AuthFirst = a.AuthSigner, true
	}
	if len(progress) > 0 {
		o.Progress = progress[0]
	}
	if a.Opts.Debug || a.Io.Getenv("ROSTER_DEBUG") == "1" {
		errw := a.Io.Err
		o.Debug = func(line string) { fmt.Fprintf(errw, "roster: debug: %s\n", termtext.Line(line)) }
	}
	return relaypool.New(o)
}

// AuthSigner answers a relay's NIP-42 challenge. The signer is opened only
// when a relay asks, so reads never prompt otherwise; without one the relay
// is reported as closed: auth-required.
func (a *Factory) AuthSigner(ctx context.Context, evt *nostr.Event) error {
	s, err := a.Signer(ctx)
	if err != nil {
		return err
	}
	return s.SignEvent(ctx, evt)
}

// SignerAndPubkey opens the signer (once per invocation, Signer) and asks
// it for its pubkey: the prologue of every command that signs or reads as
// someone. Both failures are already exit errors.
func (a *Factory) SignerAndPubkey(ctx context.Context) (signer.Signer, string, error) {
	s, err := a.Signer(ctx)
	if err != nil {
		return nil, "", err
	}
	me, err := s.PublicKey(ctx)
	if err != nil {
		return nil, "", SignerError(err)
	}
	return s, me, nil
}
