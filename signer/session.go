package signer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/nbd-wtf/go-nostr"
)

// Env is everything the signer needs from the world outside the package.
type Env struct {
	// Home is the data directory (ROSTER_HOME or $XDG_DATA_HOME/roster):
	// account.json and the ncryptsec files live here.
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
