package signer

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Rule: a new passphrase typed empty or twice differently is the user's
// input, reported as a sentinel the command layer maps to a usage error.
func TestNewPassphraseRefusalsAreSentinelErrors(t *testing.T) {
	for want, answers := range map[error][]string{ErrPassphraseMismatch: {"a", "b"}, ErrEmptyPassphrase: {""}} {
		env := Env{Home: t.TempDir(), Keyring: brokenKeyring{}, ScryptLogN: 4, Passphrase: passphrases(t, answers...)}
		if _, err := StoreKey(env, GenerateKey(), false); !errors.Is(err, want) {
			t.Errorf("passphrases %q: %v, want %v", answers, err, want)
		}
	}
}

// Rule: a bunker that cannot be reached is a BunkerConnectError naming the
// redacted bunker URL (never its secret) and is ErrBunkerUnreachable.
func TestBunkerConnectFailureNamesTheRedactedBunker(t *testing.T) {
	const secret = "one-time-s3cret"
	u := "bunker://" + strings.Repeat("ab", 32) + "?relay=ws://127.0.0.1:1&secret=" + secret
	_, err := StoreBunker(context.Background(), Env{Home: t.TempDir(), Keyring: brokenKeyring{}}, u)
	var bce *BunkerConnectError
	if !errors.As(err, &bce) || !errors.Is(err, ErrBunkerUnreachable) {
		t.Fatalf("%T %v", err, err)
	}
	if !strings.HasPrefix(bce.Bunker, "bunker://"+strings.Repeat("ab", 32)) || strings.Contains(err.Error(), secret) ||
		len(bce.Relays) != 1 || bce.Relays[0] != "ws://127.0.0.1:1" || !strings.Contains(err.Error(), bce.Bunker) {
		t.Fatalf("%+v: %v", bce, err)
	}
}

// Rule: a secret key is a secp256k1 scalar in [1, n-1]. Zero, the curve
// order and anything above it are refused as bad keys, never shown as
// pubkey 000…0.
func TestSecretKeyOutsideTheCurveOrderIsRefused(t *testing.T) {
	for _, k := range []string{
		strings.Repeat("0", 64),
		"fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
		"fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364142",
		strings.Repeat("f", 64),
	} {
		if _, err := ParseSecretKey(k); !errors.Is(err, ErrBadSecretKey) {
			t.Errorf("%s accepted: %v", k, err)
		}
		if _, err := NewKeySigner(k, "env"); err == nil {
			t.Errorf("NewKeySigner(%s) accepted", k)
		}
	}
	if _, err := ParseSecretKey("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140"); err != nil {
		t.Fatalf("n-1 is a valid key: %v", err)
	}
}
