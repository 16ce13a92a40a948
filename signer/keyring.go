package signer

import (
	"errors"
	"fmt"

	"github.com/zalando/go-keyring"
)

// KeyringService is the service name roster's secrets are filed under in the
// OS keyring; the account is the user's npub (see keyringAccount).
const KeyringService = "roster"

// Keyring is the part of the OS keyring roster uses. OSKeyring is the real
// one; tests may substitute go-keyring's mock through keyring.MockInit.
type Keyring interface {
	Get(service, account string) (string, error)
	Set(service, account, secret string) error
	Delete(service, account string) error
}

// OSKeyring is the system keyring through go-keyring (Secret Service on
// Linux, Keychain on macOS, Credential Manager on Windows).
type OSKeyring struct{}

func (OSKeyring) Get(service, account string) (string, error) { return keyring.Get(service, account) }
func (OSKeyring) Set(service, account, secret string) error {
	return keyring.Set(service, account, secret)
}
func (OSKeyring) Delete(service, account string) error { return keyring.Delete(service, account) }

// ErrKeyringEntryMissing means the keyring answered but holds no secret for
// the account: it was removed behind roster's back.
var ErrKeyringEntryMissing = errors.New("the OS keyring holds no secret for this account")

// keyringAccount names the keyring entry for a role ("" for the user's own key,
// "bunker-client" for the NIP-46 client key) of the account npub.
func keyringAccount(npub, role string) string {
	if role == "" {
		return npub
	}
	return npub + "#" + role
}

// keyringAvailable reports whether a keyring service answers at all. A lookup
// of an entry that does not exist must come back as "not found"; anything else
// (no D-Bus session, no Secret Service, a locked collection) means roster
// falls back to an ncryptsec file.
func keyringAvailable(k Keyring) error {
	_, err := k.Get(KeyringService, "roster-availability-probe")
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return fmt.Errorf("no usable OS keyring: %w", err)
}

// keyringGet returns the secret for account, mapping "not found" to
// ErrKeyringEntryMissing. Keyring errors never contain the secret itself.
func keyringGet(k Keyring, account string) (string, error) {
	s, err := k.Get(KeyringService, account)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", ErrKeyringEntryMissing
	}
	if err != nil {
		return "", fmt.Errorf("read the OS keyring: %w", err)
	}
	return s, nil
}

// keyringDelete removes account's entry; an entry that is already gone is fine.
func keyringDelete(k Keyring, account string) error {
	err := k.Delete(KeyringService, account)
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return fmt.Errorf("remove the secret from the OS keyring: %w", err)
}
