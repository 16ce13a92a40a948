package signer

// Login and logout: where secrets are stored, and how a re-login or a
// logout makes sure none is left behind.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
)

// AlreadyLoggedInError refuses a login that would silently replace another
// account's stored key.
type AlreadyLoggedInError struct{ Account Account }

func (e *AlreadyLoggedInError) Error() string {
	return fmt.Sprintf("already logged in as %s (%s); run roster logout first", e.Account.Npub, e.Account.Backend)
}

// refuseOtherAccount keeps a login from replacing a different account. It
// returns the current record when it is the same account (a re-login).
func refuseOtherAccount(home, pubkey string) (*Account, error) {
	acct, ok, err := LoadAccount(home)
	if err != nil {
		return nil, err
	}
	if ok && acct.Pubkey != pubkey {
		return nil, &AlreadyLoggedInError{Account: acct}
	}
	if ok {
		return &acct, nil
	}
	return nil, nil
}

// secretLocation is one place roster may keep a secret for an account: a
// keyring entry or a file in ROSTER_HOME.
type secretLocation struct{ keyringAccount, file string }

// secretLocations lists where acct's secrets are, as its record says.
func secretLocations(acct Account) []secretLocation {
	switch acct.Backend {
	case BackendKeyring:
		return []secretLocation{{keyringAccount: keyringAccount(acct.Npub, "")}}
	case BackendNcryptsec:
		return []secretLocation{{file: KeyFile}}
	case BackendBunker:
		if acct.BunkerClientKeyStore == BackendNcryptsec {
			return []secretLocation{{file: BunkerClientKeyFile}}
		}
		return []secretLocation{{keyringAccount: keyringAccount(acct.Npub, "bunker-client")}}
	}
	return nil
}

// forgetSecrets deletes acct's secrets except the one at keep (which a
// re-login just wrote), so that a login never leaves a secret behind that
// logout would not find.
func forgetSecrets(env Env, acct Account, keep secretLocation) error {
	for _, loc := range secretLocations(acct) {
		if loc == keep {
			continue
		}
		if loc.keyringAccount != "" {
			if err := keyringDelete(env.keyring(), loc.keyringAccount); err != nil {
				return err
			}
		}
		if loc.file != "" {
			if err := removeFiles(env.Home, loc.file); err != nil {
				return err
			}
		}
	}
	return nil
}

// GenerateKey returns a fresh 64-hex secret key.
func GenerateKey() string { return nostr.GeneratePrivateKey() }

// EncodeNsec renders a hex secret key as nsec for the one explicit
// `login --generate --show-secret` display.
func EncodeNsec(skHex string) (string, error) { return nip19.EncodePrivateKey(skHex) }

// StoreKey saves the user's secret key in the OS keyring, or, when no keyring
// service answers, in an ncryptsec file protected by a new passphrase, and
// records the account. generated marks a key roster just created.
func StoreKey(env Env, secret string, generated bool) (Account, error) {
	k, err := NewKeySigner(secret, "")
	if err != nil {
		return Account{}, err
	}
	prev, err := refuseOtherAccount(env.Home, k.pk)
	if err != nil {
		return Account{}, err
	}
	acct, err := newAccount(k.pk, BackendKeyring)
	if err != nil {
		return Account{}, err
	}
	backend, err := storeSecret(env, k.sk, keyringAccount(acct.Npub, ""), KeyFile, generated)
	if err != nil {
		return Account{}, err
	}
	acct.Backend = backend
	return acct, replaceAccount(env, prev, acct)
}

// ImportNcryptsec stores the key a NIP-49 ncryptsec holds, as StoreKey
// stores a typed key: the ncryptsec is opened with its passphrase
// (env.Passphrase), so a wrong one is ErrWrongPassphrase before anything is
// stored.
func ImportNcryptsec(env Env, ncryptsec string) (Account, error) {
	if env.Passphrase == nil {
		return Account{}, errors.New("opening an ncryptsec needs its passphrase")
	}
	pass, err := env.Passphrase("Passphrase of the ncryptsec")
	if err != nil {
		return Account{}, err
	}
	sk, err := OpenNcryptsec(ncryptsec, pass)
	if err != nil {
		if errors.Is(err, ErrWrongPassphrase) {
			return Account{}, err
		}
		return Account{}, fmt.Errorf("%w: %v", ErrBadSecretKey, err)
	}
	return StoreKey(env, sk, false)
}

// StoreBunker connects to a NIP-46 bunker with a new client key, stores that
// client key (keyring, else ncryptsec file) and records the account with the
// bunker URL minus its secret.
func StoreBunker(ctx context.Context, env Env, bunkerURL string) (Account, error) {
	b, err := ParseBunkerURL(bunkerURL)
	if err != nil {
		return Account{}, err
	}
	csk := GenerateKey()
	s, err := ConnectBunker(ctx, csk, b, env.OnAuthURL)
	if err != nil {
		return Account{}, &BunkerConnectError{Bunker: b.Redacted(), Relays: b.Relays, Err: err}
	}
	prev, err := refuseOtherAccount(env.Home, s.user)
	if err != nil {
		return Account{}, err
	}
	acct, err := newAccount(s.user, BackendBunker)
	if err != nil {
		return Account{}, err
	}
	acct.Bunker = b.Redacted()
	acct.BunkerClientPubkey = s.clientPK
	where, err := storeSecret(env, csk, keyringAccount(acct.Npub, "bunker-client"), BunkerClientKeyFile, true)
	if err != nil {
		return Account{}, err
	}
	acct.BunkerClientKeyStore = where
	return acct, replaceAccount(env, prev, acct)
}

// replaceAccount records acct and then removes whatever secret an earlier
// login of the same account kept elsewhere (a keyring key replaced by a
// bunker, a file replaced by the keyring, ...).
func replaceAccount(env Env, prev *Account, acct Account) error {
	if err := saveAccount(env.Home, acct); err != nil {
		return err
	}
	if prev == nil {
		return nil
	}
	return forgetSecrets(env, *prev, secretLocations(acct)[0])
}

// storeSecret puts a 64-hex secret in the keyring under account, or in the
// ncryptsec file named file when no keyring service exists. It returns
// BackendKeyring or BackendNcryptsec.
func storeSecret(env Env, skHex, account, file string, generated bool) (string, error) {
	kr := env.keyring()
	kerr := keyringAvailable(kr)
	if kerr == nil {
		if err := kr.Set(KeyringService, account, skHex); err != nil {
			return "", fmt.Errorf("store the key in the OS keyring: %w", err)
		}
		return BackendKeyring, nil
	}
	path := filepath.Join(env.Home, file)
	env.notice("%v", kerr)
	env.notice("storing the key encrypted with a passphrase (NIP-49) in %s", path)
	if env.Passphrase == nil {
		return "", errors.New("no OS keyring and no terminal to read a passphrase from: use ROSTER_SECRET_KEY, or log in from a terminal")
	}
	p1, err := env.Passphrase("New passphrase for the roster key")
	if err != nil {
		return "", fmt.Errorf("read passphrase: %w", err)
	}
	if p1 == "" {
		return "", ErrEmptyPassphrase
	}
	p2, err := env.Passphrase("Repeat the passphrase")
	if err != nil {
		return "", fmt.Errorf("read passphrase: %w", err)
	}
	if p1 != p2 {
		return "", ErrPassphraseMismatch
	}
	nc, err := SealNcryptsec(skHex, p1, env.ScryptLogN, generated)
	if err != nil {
		return "", err
	}
	if err := writeSecretFile(path, []byte(nc+"\n")); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return BackendNcryptsec, nil
}

// Logout removes the logged-in account's secret from wherever it is stored
// (keyring entry or ncryptsec file, the user's key or the bunker client key)
// and then the account record. ok is false when nobody was logged in.
func Logout(env Env) (acct Account, ok bool, err error) {
	acct, ok, err = LoadAccount(env.Home)
	if err != nil || !ok {
		// No usable record (none, or damaged): remove the files roster may
		// have written; a keyring entry cannot be found without the npub.
		return Account{}, false, removeFiles(env.Home, KeyFile, BunkerClientKeyFile, AccountFile)
	}
	if err := forgetSecrets(env, acct, secretLocation{}); err != nil {
		return acct, true, err
	}
	if err := removeFiles(env.Home, KeyFile, BunkerClientKeyFile, AccountFile); err != nil {
		return acct, true, err
	}
	return acct, true, nil
}

func removeFiles(home string, names ...string) error {
	for _, n := range names {
		if err := os.Remove(filepath.Join(home, n)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
