package signer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
)

// Env is everything the signer needs from the world outside the package.
type Env struct {
	// Home is ROSTER_HOME: account.json and ncryptsec files live here.
	Home string
	// SecretKey is the value of ROSTER_SECRET_KEY ("" when unset).
	SecretKey string
	// Keyring is the OS keyring; nil means OSKeyring{}.
	Keyring Keyring
	// Passphrase reads a passphrase without echo; nil means none can be read.
	Passphrase PassphraseFunc
	// OnAuthURL is told when a bunker asks the user to approve at a URL.
	OnAuthURL func(url string)
	// Notice receives one-line messages for the user (stderr), such as the
	// fallback from keyring to an ncryptsec file. nil drops them.
	Notice func(msg string)
	// ScryptLogN is the NIP-49 cost for new ncryptsec files; 0 means DefaultScryptLogN.
	ScryptLogN uint8
}

func (e Env) keyring() Keyring {
	if e.Keyring == nil {
		return OSKeyring{}
	}
	return e.Keyring
}

func (e Env) notice(format string, a ...any) {
	if e.Notice != nil {
		e.Notice(fmt.Sprintf(format, a...))
	}
}

// ErrNoSigner means neither ROSTER_SECRET_KEY nor a login is configured.
var ErrNoSigner = errors.New("no signer is configured")

// AlreadyLoggedInError refuses a login that would silently replace another
// account's stored key.
type AlreadyLoggedInError struct{ Account Account }

func (e *AlreadyLoggedInError) Error() string {
	return fmt.Sprintf("already logged in as %s (%s); run roster logout first", e.Account.Npub, e.Account.Backend)
}

// Active returns the signer to use, in the documented order: ROSTER_SECRET_KEY,
// then the logged-in account (bunker, keyring or ncryptsec file, whichever
// login recorded). It returns ErrNoSigner when there is none.
func Active(ctx context.Context, env Env) (Signer, error) {
	if env.SecretKey != "" {
		k, err := NewKeySigner(env.SecretKey, BackendEnv)
		if err != nil {
			return nil, fmt.Errorf("ROSTER_SECRET_KEY: %w", err)
		}
		return k, nil
	}
	acct, ok, err := LoadAccount(env.Home)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNoSigner
	}
	switch acct.Backend {
	case BackendKeyring:
		sk, err := keyringGet(env.keyring(), keyringAccount(acct.Npub, ""))
		if err != nil {
			return nil, fmt.Errorf("%w: run roster logout, then roster login", err)
		}
		k, err := NewKeySigner(sk, BackendKeyring)
		if err != nil || k.pk != acct.Pubkey {
			return nil, errors.New("the OS keyring entry does not hold the logged-in account's key: run roster logout, then roster login")
		}
		return k, nil
	case BackendNcryptsec:
		nc, err := readNcryptsecFile(filepath.Join(env.Home, KeyFile))
		if err != nil {
			return nil, fmt.Errorf("%w (run roster logout, then roster login)", err)
		}
		return NewEncryptedSigner(nc, acct.Pubkey, env.Passphrase), nil
	case BackendBunker:
		b, err := ParseBunkerURL(acct.Bunker)
		if err != nil {
			return nil, fmt.Errorf("recorded bunker: %w", err)
		}
		csk, err := loadBunkerClientKey(env, acct)
		if err != nil {
			return nil, err
		}
		s, err := NewBunkerSigner(csk, b, acct.Pubkey)
		if err != nil {
			return nil, err
		}
		s.OnAuthURL = env.OnAuthURL
		return s, nil
	}
	return nil, fmt.Errorf("unknown backend %q in %s", acct.Backend, AccountFile)
}

// Identify describes the active signer without unlocking it: no passphrase
// prompt and no bunker round trip. For a keyring login it checks that the
// keyring still holds the key.
func Identify(env Env) (Account, error) {
	if env.SecretKey != "" {
		sk, err := ParseSecretKey(env.SecretKey)
		if err != nil {
			return Account{}, fmt.Errorf("ROSTER_SECRET_KEY: %w", err)
		}
		pk, err := nostr.GetPublicKey(sk)
		if err != nil {
			return Account{}, fmt.Errorf("ROSTER_SECRET_KEY: %w", ErrBadSecretKey)
		}
		return newAccount(pk, BackendEnv)
	}
	acct, ok, err := LoadAccount(env.Home)
	if err != nil {
		return Account{}, err
	}
	if !ok {
		return Account{}, ErrNoSigner
	}
	if acct.Backend == BackendKeyring {
		if _, err := Active(context.Background(), env); err != nil {
			return Account{}, err
		}
	}
	if acct.Backend == BackendNcryptsec {
		if _, err := readNcryptsecFile(filepath.Join(env.Home, KeyFile)); err != nil {
			return Account{}, fmt.Errorf("%w (run roster logout, then roster login)", err)
		}
	}
	return acct, nil
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
	env.notice("%v; storing the key encrypted with a passphrase (NIP-49) in %s", kerr, path)
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

func loadBunkerClientKey(env Env, acct Account) (string, error) {
	if acct.BunkerClientKeyStore == BackendNcryptsec {
		nc, err := readNcryptsecFile(filepath.Join(env.Home, BunkerClientKeyFile))
		if err != nil {
			return "", fmt.Errorf("%w (run roster logout, then roster login --bunker)", err)
		}
		if env.Passphrase == nil {
			return "", errors.New("the bunker client key is encrypted with a passphrase and no terminal is available to ask for it")
		}
		pass, err := env.Passphrase("Passphrase for the roster bunker client key")
		if err != nil {
			return "", fmt.Errorf("read passphrase: %w", err)
		}
		return OpenNcryptsec(nc, pass)
	}
	sk, err := keyringGet(env.keyring(), keyringAccount(acct.Npub, "bunker-client"))
	if err != nil {
		return "", fmt.Errorf("bunker client key: %w: run roster logout, then roster login --bunker", err)
	}
	return sk, nil
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
