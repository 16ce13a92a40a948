package signer

import (
	"errors"
	"testing"
)

// countingKeyring fails every call and counts them.
type countingKeyring struct{ calls int }

func (k *countingKeyring) Get(string, string) (string, error) { k.calls++; return "", errNoDBus }
func (k *countingKeyring) Set(string, string, string) error   { k.calls++; return errNoDBus }
func (k *countingKeyring) Delete(string, string) error        { k.calls++; return errNoDBus }

// Rule (a read does not touch the keyring): the viewer of a keyring login
// is named from account.json alone, with no keyring call; Identify, which
// whoami uses, still checks the keyring holds the key.
func TestTheViewerOfAKeyringLoginIsReadWithoutTheKeyring(t *testing.T) {
	kr := testKeyring(t)
	home := t.TempDir()
	sk := GenerateKey()
	nsec, _ := EncodeNsec(sk)
	acct, err := StoreKey(Env{Home: home, Keyring: kr}, nsec, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = Logout(Env{Home: home, Keyring: kr}) })
	counting := &countingKeyring{}
	pk, err := Viewer(Env{Home: home, Keyring: counting})
	if err != nil || pk != acct.Pubkey || counting.calls != 0 {
		t.Fatalf("Viewer: %q %v, %d keyring calls; want %s and none", pk, err, counting.calls, acct.Pubkey)
	}
	if _, err := Identify(Env{Home: home, Keyring: counting}); err == nil || counting.calls == 0 {
		t.Fatalf("Identify with the key gone: %v after %d keyring calls", err, counting.calls)
	}
	if _, err := Viewer(Env{Home: t.TempDir(), Keyring: counting}); !errors.Is(err, ErrNoSigner) {
		t.Fatalf("nobody logged in: %v", err)
	}
	env := Env{Home: t.TempDir(), SecretKey: sk}
	if pk, err := Viewer(env); err != nil || pk != acct.Pubkey {
		t.Fatalf("ROSTER_SECRET_KEY: %q %v", pk, err)
	}
}
