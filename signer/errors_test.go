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
