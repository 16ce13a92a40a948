package signer

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
)

// Backend names, as Signer.Backend returns them and account.json records them.
const (
	BackendEnv       = "env"
	BackendBunker    = "bunker"
	BackendKeyring   = "keyring"
	BackendNcryptsec = "ncryptsec"
)

// File names inside the data directory (Env.Home).
const (
	AccountFile         = "account.json"
	KeyFile             = "key.ncryptsec"           // the user's key when no keyring exists
	BunkerClientKeyFile = "bunker-client.ncryptsec" // the NIP-46 client key when no keyring exists
)

// Files are every file a login keeps in the data directory, the account
// record last: it names the others, so a move that copies in this order
// never has a record pointing at a key that is not there yet.
var Files = []string{KeyFile, BunkerClientKeyFile, AccountFile}

// Account is the active login as recorded in <data dir>/account.json. It
// holds public facts only: never a secret key, a bunker secret or a passphrase.
type Account struct {
	Npub    string `json:"npub"`
	Pubkey  string `json:"pubkey"`
	Backend string `json:"backend"`
	// Bunker is the bunker:// URL with its one-time secret removed.
	Bunker string `json:"bunker,omitempty"`
	// BunkerClientPubkey is the public half of the NIP-46 client key.
	BunkerClientPubkey string `json:"bunker_client_pubkey,omitempty"`
	// BunkerClientKeyStore says where the client key is: "keyring" or "ncryptsec".
	BunkerClientKeyStore string `json:"bunker_client_key_store,omitempty"`
}

func newAccount(pubkey, backend string) (Account, error) {
	npub, err := nip19.EncodePublicKey(pubkey)
	if err != nil {
		return Account{}, fmt.Errorf("encode npub: %w", err)
	}
	return Account{Npub: npub, Pubkey: pubkey, Backend: backend}, nil
}

// LoadAccount reads home/account.json; ok is false when nobody is logged in.
func LoadAccount(home string) (acct Account, ok bool, err error) {
	path := filepath.Join(home, AccountFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Account{}, false, nil
	}
	if err != nil {
		return Account{}, false, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(b, &acct); err != nil {
		return Account{}, false, fmt.Errorf("%s is damaged (%v): run roster logout, then roster login", path, err)
	}
	if !nostr.IsValidPublicKey(acct.Pubkey) {
		return Account{}, false, fmt.Errorf("%s names no valid pubkey: run roster logout, then roster login", path)
	}
	switch acct.Backend {
	case BackendBunker, BackendKeyring, BackendNcryptsec:
	default:
		return Account{}, false, fmt.Errorf("%s names unknown backend %q: run roster logout, then roster login", path, acct.Backend)
	}
	return acct, true, nil
}

// saveAccount writes home/account.json with mode 0600.
func saveAccount(home string, acct Account) error {
	b, err := json.MarshalIndent(acct, "", "  ")
	if err != nil {
		return err
	}
	return writeSecretFile(filepath.Join(home, AccountFile), append(b, '\n'))
}
