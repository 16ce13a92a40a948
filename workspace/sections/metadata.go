package sections

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/roster-cli/roster/workspace/strictjson"
)

// Purpose says which metadata field a ciphertext is; it is bound into the AAD
// so a label can never be substituted for an icon or vice versa.
type Purpose string

const (
	PurposeLabel Purpose = "label"
	PurposeIcon  Purpose = "icon"
)

// KeySize is the workspace content key length: exactly 32 random bytes.
const KeySize = 32

const (
	nonceSize      = 12
	tagSize        = 16
	envelopePrefix = "aes256gcm:"
)

// AAD is the associated data of one label or icon ciphertext.
type AAD struct {
	Version     int     `json:"version"`
	Community   string  `json:"community"`
	OwnerPubkey string  `json:"owner_pubkey"`
	SectionID   string  `json:"section_id"`
	KeyEpoch    int64   `json:"key_epoch"`
	Purpose     Purpose `json:"purpose"`
}

// Bytes is the canonical JSON of the AAD, the exact bytes GCM authenticates.
func (a AAD) Bytes() ([]byte, error) {
	if a.Version != Version {
		return nil, fmt.Errorf("aad: version %d, want %d", a.Version, Version)
	}
	if a.Community == "" {
		return nil, errors.New("aad: community is empty")
	}
	if c, err := CanonicalCommunity(a.Community); err != nil || c != a.Community {
		return nil, fmt.Errorf("aad: community %q is not a canonical relay authority", a.Community)
	}
	if !IsHex64(a.OwnerPubkey) {
		return nil, fmt.Errorf("aad: owner_pubkey %q is not 64 lowercase hex", a.OwnerPubkey)
	}
	if !IsUUID(a.SectionID) {
		return nil, fmt.Errorf("aad: section_id %q is not a lowercase UUID", a.SectionID)
	}
	if a.KeyEpoch < 1 {
		return nil, fmt.Errorf("aad: key_epoch %d < 1", a.KeyEpoch)
	}
	if a.Purpose != PurposeLabel && a.Purpose != PurposeIcon {
		return nil, fmt.Errorf("aad: purpose %q is not label or icon", a.Purpose)
	}
	return strictjson.Canonical(a)
}

// ErrMetadataAuth is returned when a label or icon fails authentication: the
// wrong key, a tampered ciphertext, or any AAD field that differs. Callers
// must surface it and never retry with weaker or omitted AAD.
var ErrMetadataAuth = errors.New("encrypted metadata failed authentication (wrong key, tampered, or bound to another community, owner, section, epoch or purpose)")

// NewKey returns a fresh 32-byte workspace content key.
func NewKey() ([]byte, error) {
	k := make([]byte, KeySize)
	if _, err := io.ReadFull(rand.Reader, k); err != nil {
		return nil, fmt.Errorf("workspace key: %w", err)
	}
	return k, nil
}

// EncryptMetadata seals plaintext under key with a fresh random nonce.
func EncryptMetadata(key []byte, aad AAD, plaintext string) (string, error) {
	nonce := make([]byte, nonceSize)
	if _, err := io.ReadFull(rand.Reader, nonce); err != nil {
		return "", fmt.Errorf("nonce: %w", err)
	}
	return sealWithNonce(key, nonce, aad, plaintext)
}

// sealWithNonce is EncryptMetadata with a caller-chosen nonce; only the
// deterministic fixture vector test uses it directly.
func sealWithNonce(key, nonce []byte, aad AAD, plaintext string) (string, error) {
	if !utf8.ValidString(plaintext) {
		return "", errors.New("label and icon plaintext must be UTF-8")
	}
	gcm, err := newGCM(key)
	if err != nil {
		return "", err
	}
	ad, err := aad.Bytes()
	if err != nil {
		return "", err
	}
	ct := gcm.Seal(nil, nonce, []byte(plaintext), ad)
	env := envelopePrefix + b64.EncodeToString(nonce) + ":" + b64.EncodeToString(ct)
	if len(env) > MaxEncryptedMetadataBytes {
		return "", ruleErr("metadata-size", "encrypted metadata is %d bytes, limit %d", len(env), MaxEncryptedMetadataBytes)
	}
	return env, nil
}

var b64 = base64.RawURLEncoding

// DecryptMetadata opens an envelope produced by EncryptMetadata with exactly
// the given AAD.
func DecryptMetadata(key []byte, aad AAD, envelope string) (string, error) {
	nonce, ct, err := splitEnvelope(envelope)
	if err != nil {
		return "", err
	}
	gcm, err := newGCM(key)
	if err != nil {
		return "", err
	}
	ad, err := aad.Bytes()
	if err != nil {
		return "", err
	}
	pt, err := gcm.Open(nil, nonce, ct, ad)
	if err != nil {
		return "", ErrMetadataAuth
	}
	if !utf8.Valid(pt) {
		return "", errors.New("decrypted metadata is not UTF-8")
	}
	return string(pt), nil
}

func splitEnvelope(envelope string) (nonce, ct []byte, err error) {
	rest, ok := strings.CutPrefix(envelope, envelopePrefix)
	if !ok {
		return nil, nil, fmt.Errorf("encrypted metadata does not start with %q", envelopePrefix)
	}
	n, c, ok := strings.Cut(rest, ":")
	if !ok {
		return nil, nil, errors.New("encrypted metadata has no nonce separator")
	}
	if nonce, err = b64.Strict().DecodeString(n); err != nil || len(nonce) != nonceSize {
		return nil, nil, errors.New("encrypted metadata nonce is not 12 bytes of base64url without padding")
	}
	if ct, err = b64.Strict().DecodeString(c); err != nil || len(ct) < tagSize {
		return nil, nil, errors.New("encrypted metadata ciphertext is not base64url without padding or is shorter than the tag")
	}
	return nonce, ct, nil
}

func newGCM(key []byte) (cipher.AEAD, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("workspace key is %d bytes, want %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
