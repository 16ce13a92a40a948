package signer

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// Viewer is the pubkey of the active signer as far as a read needs it (whose
// announcement the advisory warnings are about): ROSTER_SECRET_KEY's, else
// the logged-in account's from account.json. Unlike Identify it touches no
// keyring and reads no key file, so a read never waits on the OS keyring
// (a D-Bus round trip on Linux) or prompts; a login whose key has since
// gone is still named, and the write that needs the key says it is gone.
// Nobody signed in is ErrNoSigner.
func Viewer(env Env) (string, error) {
	if env.SecretKey != "" {
		sk, err := ParseSecretKey(env.SecretKey)
		if err != nil {
			return "", fmt.Errorf("ROSTER_SECRET_KEY: %w", err)
		}
		pk, err := nostr.GetPublicKey(sk)
		if err != nil {
			return "", fmt.Errorf("ROSTER_SECRET_KEY: %w", ErrBadSecretKey)
		}
		return pk, nil
	}
	acct, ok, err := LoadAccount(env.Home)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", ErrNoSigner
	}
	return acct.Pubkey, nil
}
