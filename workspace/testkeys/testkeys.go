// Package testkeys gives roster's tests (workspace packages, devrelay,
// relaypool, cmd/roster) one way to make keys, public keys, signers and
// signed events, failing the test on a bad key. Only tests import it.
package testkeys

import (
	"context"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/signer"
)

// Key is a fresh random key pair with the signer roster would use for it
// (NIP-44 included, for key envelopes).
type Key struct {
	SK, PK string
	Signer signer.Signer
}

// New returns a fresh random Key.
func New(t testing.TB) Key {
	t.Helper()
	sk := nostr.GeneratePrivateKey()
	s, err := signer.NewKeySigner(sk, "env")
	if err != nil {
		t.Fatal(err)
	}
	pk, err := s.PublicKey(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return Key{SK: sk, PK: pk, Signer: s}
}

// Pub is the public key of secret key sk.
func Pub(t testing.TB, sk string) string {
	t.Helper()
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

// Sign signs evt with sk in place and returns it.
func Sign(t testing.TB, sk string, evt *nostr.Event) *nostr.Event {
	t.Helper()
	if err := evt.Sign(sk); err != nil {
		t.Fatal(err)
	}
	return evt
}
