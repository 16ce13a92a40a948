package signer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/nbd-wtf/go-nostr/nip44"
)

// KeySigner signs with a secret key held in memory. It backs ROSTER_SECRET_KEY
// and, once unlocked, the keyring and ncryptsec backends.
type KeySigner struct {
	sk      string
	pk      string
	backend string
}

// ErrBadSecretKey never includes the rejected input: it may be a secret.
var ErrBadSecretKey = errors.New("secret key must be an nsec or 64 hex characters")

// NewKeySigner accepts an nsec or 64-hex secret key. backend names its origin.
func NewKeySigner(secret, backend string) (*KeySigner, error) {
	sk, err := ParseSecretKey(secret)
	if err != nil {
		return nil, err
	}
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		return nil, ErrBadSecretKey
	}
	return &KeySigner{sk: sk, pk: pk, backend: backend}, nil
}

// ParseSecretKey normalizes an nsec or hex secret key to lowercase hex.
func ParseSecretKey(secret string) (string, error) {
	secret = strings.TrimSpace(secret)
	if strings.HasPrefix(secret, "nsec1") {
		prefix, v, err := nip19.Decode(secret)
		if err != nil || prefix != "nsec" {
			return "", ErrBadSecretKey
		}
		s, ok := v.(string)
		if !ok {
			return "", ErrBadSecretKey
		}
		return s, nil
	}
	if !nostr.IsValid32ByteHex(strings.ToLower(secret)) {
		return "", ErrBadSecretKey
	}
	return strings.ToLower(secret), nil
}

func (k *KeySigner) PublicKey(context.Context) (string, error) { return k.pk, nil }
func (k *KeySigner) Backend() string                           { return k.backend }

func (k *KeySigner) SignEvent(_ context.Context, evt *nostr.Event) error {
	if err := evt.Sign(k.sk); err != nil {
		return fmt.Errorf("sign event: %w", err)
	}
	return nil
}

func (k *KeySigner) Encrypt(_ context.Context, plaintext, recipient string) (string, error) {
	ck, err := nip44.GenerateConversationKey(recipient, k.sk)
	if err != nil {
		return "", fmt.Errorf("nip44 conversation key: %w", err)
	}
	return nip44.Encrypt(plaintext, ck)
}

func (k *KeySigner) Decrypt(_ context.Context, ciphertext, sender string) (string, error) {
	ck, err := nip44.GenerateConversationKey(sender, k.sk)
	if err != nil {
		return "", fmt.Errorf("nip44 conversation key: %w", err)
	}
	return nip44.Decrypt(ciphertext, ck)
}
