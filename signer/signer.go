// Package signer holds the user's key behind one interface. Every backend signs
// events and does NIP-44 pairwise encryption; none ever exposes the secret.
package signer

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
)

// Signer is what every write in roster signs with.
type Signer interface {
	// PublicKey returns the 64-hex public key.
	PublicKey(ctx context.Context) (string, error)
	// SignEvent sets PubKey, ID and Sig on evt.
	SignEvent(ctx context.Context, evt *nostr.Event) error
	// Encrypt NIP-44-encrypts plaintext to recipient (64-hex).
	Encrypt(ctx context.Context, plaintext, recipient string) (string, error)
	// Decrypt NIP-44-decrypts ciphertext from sender (64-hex).
	Decrypt(ctx context.Context, ciphertext, sender string) (string, error)
	// Backend names where the key lives: "env", "keyring", "ncryptsec", "bunker".
	Backend() string
}
