package main

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

// noKeyringService is a machine without a Secret Service: every call fails
// the way go-keyring fails without a D-Bus session.
type noKeyringService struct{}

var errNoSessionBus = errors.New("dbus: no session bus")

func (noKeyringService) Get(string, string) (string, error) { return "", errNoSessionBus }
func (noKeyringService) Set(string, string, string) error   { return errNoSessionBus }
func (noKeyringService) Delete(string, string) error        { return errNoSessionBus }

// noKeyring gives an invocation a machine without a keyring service. The
// ncryptsec files its logins write cost 2^4 scrypt rounds instead of 2^16
// (signer.DefaultScryptLogN, which the signer package's tests cover): the
// files and their passphrases work alike, and each open no longer costs a
// 64 MiB scrypt run.
var noKeyring = cmdutil.Seams{Keyring: noKeyringService{}, ScryptLogN: 4}

// testKey is a fresh secret key in the three forms tests need.
type testKey struct{ hex, nsec, pubkey, npub string }

func newTestKey(t *testing.T) testKey {
	t.Helper()
	sk := nostr.GeneratePrivateKey()
	pk, _ := nostr.GetPublicKey(sk)
	nsec, _ := nip19.EncodePrivateKey(sk)
	npub, _ := nip19.EncodePublicKey(pk)
	return testKey{hex: sk, nsec: nsec, pubkey: pk, npub: npub}
}

// decodeJSON decodes a command's stdout into v.
func decodeJSON(t *testing.T, r result, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Out), v); err != nil {
		t.Fatalf("stdout is not JSON (%v): %q (stderr %q)", err, r.Out, r.Err)
	}
}

// secretLeaks lists where k's secret appears: in any of the outputs, or in
// any file under dirs (account file, cache, ...). Hex is matched case-blind.
func secretLeaks(t *testing.T, k testKey, outputs map[string]string, dirs ...string) []string {
	t.Helper()
	var leaks []string
	has := func(s string) bool {
		return strings.Contains(strings.ToLower(s), k.hex) || strings.Contains(s, k.nsec)
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
