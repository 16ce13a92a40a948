package signer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbd-wtf/go-nostr/nip49"
)

// DefaultScryptLogN is NIP-49's LOG_N for files roster writes: 2^16 rounds,
// 64 MiB, the smallest value the NIP lists and fast enough for every command.
const DefaultScryptLogN = 16

// ErrWrongPassphrase never echoes what was typed.
var ErrWrongPassphrase = errors.New("wrong passphrase for the encrypted key file")

// SealNcryptsec encrypts a 64-hex secret key as a NIP-49 ncryptsec string.
// generated marks a key roster created and never displayed (key security byte
// 0x01, "not known to have been handled insecurely"); a typed or piped key
// gets 0x02, "client does not track this data".
func SealNcryptsec(skHex, passphrase string, logN uint8, generated bool) (string, error) {
	ksb := nip49.ClientDoesNotTrackThisData
	if generated {
		ksb = nip49.NotKnownToHaveBeenHandledInsecurely
	}
	if logN == 0 {
		logN = DefaultScryptLogN
	}
	s, err := nip49.Encrypt(skHex, passphrase, logN, ksb)
	if err != nil {
		// nip49's errors never include the key, but say nothing specific anyway.
		return "", errors.New("encrypt the secret key (NIP-49) failed")
	}
	return s, nil
}

// OpenNcryptsec decrypts a NIP-49 ncryptsec string to a 64-hex secret key.
func OpenNcryptsec(ncryptsec, passphrase string) (string, error) {
	ncryptsec = strings.TrimSpace(ncryptsec)
	if !strings.HasPrefix(ncryptsec, "ncryptsec1") {
		return "", errors.New("not an ncryptsec (NIP-49) string")
	}
	sk, err := nip49.Decrypt(ncryptsec, passphrase)
	if err != nil {
		return "", ErrWrongPassphrase
	}
	if len(sk) != 64 {
		return "", errors.New("the ncryptsec does not hold a 32-byte secret key")
	}
	return sk, nil
}

// writeSecretFile writes data to path with mode 0600, creating its directory
// with 0700. It writes a temporary file and renames it so a crash never leaves
// half a key behind.
func writeSecretFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// readNcryptsecFile reads an ncryptsec file and refuses one that others can
// read: a passphrase-protected key is still an offline brute-force target.
func readNcryptsecFile(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("encrypted key file: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("encrypted key file %s is readable by others (mode %o): run chmod 600 %s", path, st.Mode().Perm(), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("encrypted key file: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}
