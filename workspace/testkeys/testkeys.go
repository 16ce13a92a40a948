// Package testkeys gives the tests of the NIP-PC and NIP-29 packages (client
// and reference relay) one way to turn their fixed secret keys into public
// keys and signed events, failing the test on a bad key.
package testkeys

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

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
