package clitest

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// NoKeyringService is a machine without a Secret Service: every call fails
// the way go-keyring fails without a D-Bus session.
type NoKeyringService struct{}

var ErrNoSessionBus = errors.New("dbus: no session bus")

func (NoKeyringService) Get(string, string) (string, error) { return "", ErrNoSessionBus }

func (NoKeyringService) Set(string, string, string) error { return ErrNoSessionBus }

func (NoKeyringService) Delete(string, string) error { return ErrNoSessionBus }

// NoKeyring gives an invocation a machine without a keyring service. The
// ncryptsec files its logins write cost 2^4 scrypt rounds instead of 2^16
// (signer.DefaultScryptLogN, which the signer package's tests cover): the
// files and their passphrases work alike, and each open no longer costs a
// 64 MiB scrypt run.
var NoKeyring = cmdutil.Seams{Keyring: NoKeyringService{}, ScryptLogN: 4}

// TestKey is a fresh secret key in the three forms tests need.
type TestKey struct{ Hex, Nsec, Pubkey, Npub string }

func NewTestKey(t *testing.T) TestKey {
	t.Helper()
	sk := nostr.GeneratePrivateKey()
	pk, _ := nostr.GetPublicKey(sk)
	nsec, _ := nip19.EncodePrivateKey(sk)
	npub, _ := nip19.EncodePublicKey(pk)
	return TestKey{Hex: sk, Nsec: nsec, Pubkey: pk, Npub: npub}
}

// DecodeJSON decodes a command's stdout into v.
func DecodeJSON(t *testing.T, r Result, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Out), v); err != nil {
		t.Fatalf("stdout is not JSON (%v): %q (stderr %q)", err, r.Out, r.Err)
	}
}

// SecretLeaks lists where k's secret appears: in any of the outputs, or in
// any file under dirs (account file, cache, ...). Hex is matched case-blind.
func SecretLeaks(t *testing.T, k TestKey, outputs map[string]string, dirs ...string) []string {
	t.Helper()
	var leaks []string
	has := func(s string) bool {
		return strings.Contains(strings.ToLower(s), k.Hex) || strings.Contains(s, k.Nsec)
	}
	for name, s := range outputs {
		if has(s) {
			leaks = append(leaks, name)
		}
	}
	for _, d := range dirs {
		_ = filepath.Walk(d, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			b, _ := os.ReadFile(p)
			if has(string(b)) {
				leaks = append(leaks, p)
			}
			return nil
		})
	}
	return leaks
}
