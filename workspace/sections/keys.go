package sections

import (
	"context"
	"encoding/hex"
	"fmt"

	"github.com/roster-cli/roster/signer"
)

// WrapKey NIP-44-wraps the 32-byte workspace key from the owner (the signer)
// to reader. The NIP-44 plaintext is the key as 64 lowercase hex characters.
func WrapKey(ctx context.Context, s signer.Signer, key []byte, reader string) (string, error) {
	if len(key) != KeySize {
		return "", fmt.Errorf("workspace key is %d bytes, want %d", len(key), KeySize)
	}
	env, err := s.Encrypt(ctx, hex.EncodeToString(key), reader)
	if err != nil {
		return "", fmt.Errorf("wrap workspace key for %s: %w", reader, err)
	}
	if len(env) > MaxKeyEnvelopeBytes {
		return "", ruleErr("envelope-size", "key envelope is %d bytes, limit %d", len(env), MaxKeyEnvelopeBytes)
	}
	return env, nil
}

// UnwrapKey opens a key envelope that owner wrapped for the signer.
func UnwrapKey(ctx context.Context, s signer.Signer, envelope, owner string) ([]byte, error) {
	pt, err := s.Decrypt(ctx, envelope, owner)
	if err != nil {
		return nil, fmt.Errorf("open workspace key envelope: %w", err)
	}
	key, err := hex.DecodeString(pt)
	if err != nil || len(key) != KeySize || hex.EncodeToString(key) != pt {
		return nil, fmt.Errorf("workspace key envelope does not hold 32 bytes as lowercase hex")
	}
	return key, nil
}
