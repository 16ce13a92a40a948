package signer

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/nbd-wtf/go-nostr"
)

// PassphraseFunc reads a passphrase from the user without echo. prompt says
// what it is for. Tests pass a function reading from a buffer.
type PassphraseFunc func(prompt string) (string, error)

// EncryptedSigner holds a NIP-49 ncryptsec and asks for the passphrase the
// first time the key is needed (signing, encrypting, decrypting), once per
// process. Its public key is known without the passphrase, from the account
// record, so `whoami` never prompts.
type EncryptedSigner struct {
	ncryptsec  string
	pubkey     string
	passphrase PassphraseFunc

	mu  sync.Mutex
	key *KeySigner
}

var _ Signer = (*EncryptedSigner)(nil)

// NewEncryptedSigner wraps ncryptsec, whose key must belong to pubkey.
func NewEncryptedSigner(ncryptsec, pubkey string, passphrase PassphraseFunc) *EncryptedSigner {
	return &EncryptedSigner{ncryptsec: ncryptsec, pubkey: pubkey, passphrase: passphrase}
}

func (e *EncryptedSigner) Backend() string                           { return BackendNcryptsec }
func (e *EncryptedSigner) PublicKey(context.Context) (string, error) { return e.pubkey, nil }

// unlock decrypts the key once and checks it is the recorded account's key.
func (e *EncryptedSigner) unlock() (*KeySigner, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.key != nil {
		return e.key, nil
	}
	if e.passphrase == nil {
		return nil, errors.New("the key is encrypted with a passphrase and no terminal is available to ask for it")
	}
	pass, err := e.passphrase("Passphrase for the roster key")
	if err != nil {
		return nil, fmt.Errorf("read passphrase: %w", err)
	}
	sk, err := OpenNcryptsec(e.ncryptsec, pass)
	if err != nil {
		return nil, err
	}
	k, err := NewKeySigner(sk, BackendNcryptsec)
	if err != nil {
		return nil, err
	}
	if k.pk != e.pubkey {
		return nil, errors.New("the encrypted key file holds a different key from the logged-in account: run roster logout, then roster login")
	}
	e.key = k
	return k, nil
}

func (e *EncryptedSigner) SignEvent(ctx context.Context, evt *nostr.Event) error {
	k, err := e.unlock()
	if err != nil {
		return err
	}
	return k.SignEvent(ctx, evt)
}

func (e *EncryptedSigner) Encrypt(ctx context.Context, plaintext, recipient string) (string, error) {
	k, err := e.unlock()
	if err != nil {
		return "", err
	}
	return k.Encrypt(ctx, plaintext, recipient)
}

// Decrypt decrypts with nip44.Decrypt under the unlocked key (go-nostr's
// encrypted keyer calls nip44.Encrypt here).
func (e *EncryptedSigner) Decrypt(ctx context.Context, ciphertext, sender string) (string, error) {
	k, err := e.unlock()
	if err != nil {
		return "", err
	}
	return k.Decrypt(ctx, ciphertext, sender)
}
