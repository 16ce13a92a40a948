package signer

import (
	"context"
	"errors"
	"fmt"
	"math/big"
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

// ParseSecretKey normalizes an nsec or hex secret key to lowercase hex. A
// key must be a secp256k1 scalar in [1, n-1]: zero, the curve order and
// anything above it are not keys (some libraries would reduce them modulo n
// or sign as the point at infinity, shown as pubkey 000…0).
func ParseSecretKey(secret string) (string, error) {
	secret = strings.TrimSpace(secret)
	hexKey := strings.ToLower(secret)
	if strings.HasPrefix(secret, "nsec1") {
		prefix, v, err := nip19.Decode(secret)
		if err != nil || prefix != "nsec" {
			return "", ErrBadSecretKey
		}
		s, ok := v.(string)
		if !ok {
			return "", ErrBadSecretKey
		}
		hexKey = s
	}
	if !nostr.IsValid32ByteHex(hexKey) || !validScalar(hexKey) {
		return "", ErrBadSecretKey
	}
	return hexKey, nil
}

// curveOrder is n, the order of secp256k1.
var curveOrder, _ = new(big.Int).SetString("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16)

// validScalar reports whether the 64-hex key is in [1, n-1].
func validScalar(hexKey string) bool {
	k, ok := new(big.Int).SetString(hexKey, 16)
	return ok && k.Sign() > 0 && k.Cmp(curveOrder) < 0
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
