//go:build secretservice

package signer

import (
	"errors"
	"os"
	"testing"

	"github.com/zalando/go-keyring"
)

// testKeyring returns the real Secret Service of the CI keyring session
// (.ci/keyring-session: dbus-run-session plus an unlocked gnome-keyring). The
// secretservice build tag is set only there, so a missing service is a failure,
// never a skip.
func testKeyring(t *testing.T) Keyring {
	t.Helper()
	if os.Getenv("ROSTER_TEST_SECRET_SERVICE") != "1" {
		t.Fatal("built with -tags=secretservice but ROSTER_TEST_SECRET_SERVICE!=1: run under dbus-run-session -- bash .ci/keyring-session")
	}
	if _, err := keyring.Get(KeyringService, "roster-test-probe"); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("no usable Secret Service in this session: %v", err)
	}
	return OSKeyring{}
}

// TestKeyringBackendUsesTheRealSecretService proves the entry lands in the
// Secret Service itself: go-keyring reads it back through D-Bus under service
// "roster" and account = the npub, and logout removes it there.
func TestKeyringBackendUsesTheRealSecretService(t *testing.T) {
	env := Env{Home: t.TempDir(), Keyring: testKeyring(t)}
	sk := GenerateKey()
	acct, err := StoreKey(env, sk, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = keyring.Delete(KeyringService, acct.Npub) })
	if acct.Backend != BackendKeyring {
		t.Fatalf("backend %q, want keyring", acct.Backend)
	}
	got, err := keyring.Get(KeyringService, acct.Npub)
	if err != nil || got != sk {
		t.Fatalf("Secret Service entry roster/%s: err %v, holds the key: %v", acct.Npub, err, got == sk)
	}
	if _, _, err := Logout(env); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get(KeyringService, acct.Npub); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("after logout the Secret Service still answers %v", err)
	}
}
