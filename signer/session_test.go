package signer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// brokenKeyring is a machine with no keyring service: every call fails the
// way go-keyring fails without a D-Bus session.
type brokenKeyring struct{}

var errNoDBus = errors.New("dbus: no session bus")

func (brokenKeyring) Get(string, string) (string, error) { return "", errNoDBus }
func (brokenKeyring) Set(string, string, string) error   { return errNoDBus }
func (brokenKeyring) Delete(string, string) error        { return errNoDBus }

func signAndVerify(t *testing.T, s Signer) {
	t.Helper()
	evt := nostr.Event{Kind: 1, CreatedAt: 1700000000, Tags: nostr.Tags{{"t", "x"}}, Content: "hello"}
	if err := s.SignEvent(context.Background(), &evt); err != nil {
		t.Fatal(err)
	}
	pk, _ := s.PublicKey(context.Background())
	if ok, _ := evt.CheckSignature(); !ok || evt.PubKey != pk || !evt.CheckID() {
		t.Fatalf("bad signature from %s backend", s.Backend())
	}
}

// assertNoSecretIn fails if any file under dir contains sk in hex or nsec form.
func assertNoSecretIn(t *testing.T, dir, sk string) {
	t.Helper()
	nsec, _ := EncodeNsec(sk)
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(strings.ToLower(string(b)), sk) || strings.Contains(string(b), nsec) {
			t.Errorf("%s contains the secret key", p)
		}
		return nil
	})
}

func TestActiveWithNothingConfiguredIsErrNoSigner(t *testing.T) {
	_, err := Active(context.Background(), Env{Home: t.TempDir(), Keyring: brokenKeyring{}})
	if !errors.Is(err, ErrNoSigner) {
		t.Fatalf("err %v, want ErrNoSigner", err)
	}
	if _, err := Identify(Env{Home: t.TempDir()}); !errors.Is(err, ErrNoSigner) {
		t.Fatalf("Identify: err %v, want ErrNoSigner", err)
	}
}

// Rule (signer order): ROSTER_SECRET_KEY first, then the stored login.
func TestRosterSecretKeyWinsOverLogin(t *testing.T) {
	env := Env{Home: t.TempDir(), Keyring: testKeyring(t)}
	if _, err := StoreKey(env, GenerateKey(), true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = Logout(env) })
	envKey := GenerateKey()
	env.SecretKey, _ = EncodeNsec(envKey)
	s, err := Active(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := nostr.GetPublicKey(envKey)
	if pk, _ := s.PublicKey(context.Background()); s.Backend() != BackendEnv || pk != want {
		t.Fatalf("backend %s pubkey %s, want env %s", s.Backend(), pk, want)
	}
	signAndVerify(t, s)
	acct, err := Identify(env)
	if err != nil || acct.Backend != BackendEnv || acct.Pubkey != want {
		t.Fatalf("Identify %+v %v", acct, err)
	}
}

func TestRosterSecretKeyAcceptsHexAndRejectsGarbageWithoutEchoingIt(t *testing.T) {
	sk := GenerateKey()
	s, err := Active(context.Background(), Env{Home: t.TempDir(), SecretKey: strings.ToUpper(sk)})
	if err != nil {
		t.Fatal(err)
	}
	signAndVerify(t, s)
	bad := "nsec1notavalidkeyatall" + sk[:10]
	_, err = Active(context.Background(), Env{Home: t.TempDir(), SecretKey: bad})
	if err == nil || strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), sk[:10]) {
		t.Fatalf("err %v: want a rejection that does not repeat the input", err)
	}
}

// Rule (keyring storage): the OS keyring via go-keyring, service "roster", account = the npub;
// the account record holds no secret and is mode 0600.
func TestKeyringLoginStoresUnderServiceRosterAndNpub(t *testing.T) {
	kr := testKeyring(t)
	home := t.TempDir()
	env := Env{Home: home, Keyring: kr}
	sk := GenerateKey()
	nsec, _ := EncodeNsec(sk)
	acct, err := StoreKey(env, nsec, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = Logout(env) })
	if acct.Backend != BackendKeyring || !strings.HasPrefix(acct.Npub, "npub1") {
		t.Fatalf("account %+v", acct)
	}
	if got, err := kr.Get(KeyringService, acct.Npub); err != nil || got != sk {
		t.Fatalf("keyring roster/%s: %v (holds key: %v)", acct.Npub, err, got == sk)
	}
	st, err := os.Stat(filepath.Join(home, AccountFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("account file: %v mode %v", err, st)
	}
	assertNoSecretIn(t, home, sk)
	s, err := Active(context.Background(), env)
	if err != nil || s.Backend() != BackendKeyring {
		t.Fatalf("Active: %v %v", s, err)
	}
	signAndVerify(t, s)
}

// Rule (no keyring: NIP-49 file): an ncryptsec file in ROSTER_HOME (0600) when no keyring service
// exists, unlocked by a passphrase.
func TestNoKeyringFallsBackToNcryptsecFile(t *testing.T) {
	home := t.TempDir()
	var notices []string
	env := Env{Home: home, Keyring: brokenKeyring{}, ScryptLogN: 4,
		Passphrase: passphrases(t, "correct horse", "correct horse"),
		Notice:     func(m string) { notices = append(notices, m) }}
	sk := GenerateKey()
	acct, err := StoreKey(env, sk, false)
	if err != nil {
		t.Fatal(err)
	}
	if acct.Backend != BackendNcryptsec {
		t.Fatalf("backend %q, want ncryptsec", acct.Backend)
	}
	// Two short lines: why there is no keyring, and where the key goes.
	if len(notices) != 2 || !strings.Contains(notices[0], "no usable OS keyring") || !strings.Contains(notices[1], KeyFile) {
		t.Fatalf("notices %q: want the keyring's failure, then the key file", notices)
	}
	path := filepath.Join(home, KeyFile)
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", err, st)
	}
	nc, _ := os.ReadFile(path)
	if got, err := OpenNcryptsec(string(nc), "correct horse"); err != nil || got != sk {
		t.Fatalf("file does not open to the key: %v", err)
	}
	assertNoSecretIn(t, home, sk)

	// Identify never prompts; signing prompts once per process.
	env.Passphrase = passphrases(t, "correct horse")
	if a, err := Identify(env); err != nil || a.Pubkey != acct.Pubkey {
		t.Fatalf("Identify %+v %v", a, err)
	}
	s, err := Active(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	signAndVerify(t, s)
	signAndVerify(t, s)

	env.Passphrase = passphrases(t, "wrong")
	s, _ = Active(context.Background(), env)
	evt := nostr.Event{Kind: 1}
	if err := s.SignEvent(context.Background(), &evt); !errors.Is(err, ErrWrongPassphrase) {
		t.Fatalf("wrong passphrase: %v", err)
	}
}

func TestNcryptsecFallbackRefusesMismatchedOrEmptyPassphrase(t *testing.T) {
	for _, answers := range [][]string{{"a", "b"}, {""}} {
		home := t.TempDir()
		env := Env{Home: home, Keyring: brokenKeyring{}, ScryptLogN: 4, Passphrase: passphrases(t, answers...)}
		if _, err := StoreKey(env, GenerateKey(), false); err == nil {
			t.Fatalf("passphrases %q accepted", answers)
		}
		if _, err := os.Stat(filepath.Join(home, AccountFile)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("passphrases %q: account recorded anyway", answers)
		}
	}
}

// The encrypted and key signers decrypt with NIP-44 decrypt: what a peer
// encrypts to the user comes back as the plaintext (go-nostr's keyer calls
// encrypt in its Decrypt).
func TestNIP44DecryptPathsReturnThePeersPlaintext(t *testing.T) {
	ctx := context.Background()
	sk := GenerateKey()
	pk, _ := nostr.GetPublicKey(sk)
	nc, err := SealNcryptsec(sk, "pw", 4, false)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := NewKeySigner(sk, BackendKeyring)
	signers := []Signer{key, NewEncryptedSigner(nc, pk, passphrases(t, "pw"))}
	peer, _ := NewKeySigner(GenerateKey(), BackendEnv)
	peerPK, _ := peer.PublicKey(ctx)
	for _, s := range signers {
		ct, err := peer.Encrypt(ctx, "section key material", pk)
		if err != nil {
			t.Fatal(err)
		}
		pt, err := s.Decrypt(ctx, ct, peerPK)
		if err != nil || pt != "section key material" {
			t.Fatalf("%s Decrypt: %q %v", s.Backend(), pt, err)
		}
		back, err := s.Encrypt(ctx, "reply", peerPK)
		if err != nil {
			t.Fatal(err)
		}
		if pt, err := peer.Decrypt(ctx, back, pk); err != nil || pt != "reply" {
			t.Fatalf("%s Encrypt: peer reads %q %v", s.Backend(), pt, err)
		}
	}
}

func TestEncryptedSignerRefusesAFileHoldingAnotherKey(t *testing.T) {
	nc, _ := SealNcryptsec(GenerateKey(), "pw", 4, false)
	other, _ := nostr.GetPublicKey(GenerateKey())
	s := NewEncryptedSigner(nc, other, passphrases(t, "pw"))
	if err := s.SignEvent(context.Background(), &nostr.Event{}); err == nil {
		t.Fatal("signed with a key that is not the account's")
	}
}

// Rule (one account per login): a login must not silently replace another account's stored key.
func TestLoginRefusesToReplaceAnotherAccount(t *testing.T) {
	env := Env{Home: t.TempDir(), Keyring: testKeyring(t)}
	first, err := StoreKey(env, GenerateKey(), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = Logout(env) })
	_, err = StoreKey(env, GenerateKey(), true)
	var already *AlreadyLoggedInError
	if !errors.As(err, &already) || already.Account.Npub != first.Npub {
		t.Fatalf("err %v, want AlreadyLoggedInError naming %s", err, first.Npub)
	}
}

// Rule (logout): logout removes the secret from wherever it is stored.
func TestLogoutRemovesTheSecretFromKeyringAndFile(t *testing.T) {
	kr := testKeyring(t)
	env := Env{Home: t.TempDir(), Keyring: kr}
	acct, err := StoreKey(env, GenerateKey(), true)
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := Logout(env)
	if err != nil || !ok || got.Npub != acct.Npub {
		t.Fatalf("Logout %+v %v %v", got, ok, err)
	}
	if _, err := keyringGet(kr, acct.Npub); !errors.Is(err, ErrKeyringEntryMissing) {
		t.Fatalf("keyring entry still there: %v", err)
	}
	if _, err := Active(context.Background(), env); !errors.Is(err, ErrNoSigner) {
		t.Fatalf("after logout Active: %v", err)
	}

	fileEnv := Env{Home: t.TempDir(), Keyring: brokenKeyring{}, ScryptLogN: 4, Passphrase: passphrases(t, "p", "p")}
	if _, err := StoreKey(fileEnv, GenerateKey(), true); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := Logout(fileEnv); err != nil || !ok {
		t.Fatalf("Logout: %v %v", ok, err)
	}
	entries, _ := os.ReadDir(fileEnv.Home)
	if len(entries) != 0 {
		t.Fatalf("files left after logout: %v", entries)
	}
	if _, ok, err := Logout(fileEnv); err != nil || ok {
		t.Fatalf("second logout: %v %v, want nothing to do", ok, err)
	}
}

func TestKeyringEntryRemovedBehindRostersBackIsReported(t *testing.T) {
	kr := testKeyring(t)
	env := Env{Home: t.TempDir(), Keyring: kr}
	acct, err := StoreKey(env, GenerateKey(), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := kr.Delete(KeyringService, acct.Npub); err != nil {
		t.Fatal(err)
	}
	if _, err := Identify(env); !errors.Is(err, ErrKeyringEntryMissing) || !strings.Contains(err.Error(), "roster login") {
		t.Fatalf("Identify: %v", err)
	}
	_, _, _ = Logout(env)
}

// A re-login of the same account in another backend leaves no secret behind
// in the old one, so logout (which follows the record) finds everything.
func TestReloginInAnotherBackendForgetsTheOldSecret(t *testing.T) {
	home := t.TempDir()
	sk := GenerateKey()
	fileEnv := Env{Home: home, Keyring: brokenKeyring{}, ScryptLogN: 4, Passphrase: passphrases(t, "p", "p")}
	if _, err := StoreKey(fileEnv, sk, false); err != nil {
		t.Fatal(err)
	}
	kr := testKeyring(t)
	env := Env{Home: home, Keyring: kr}
	acct, err := StoreKey(env, sk, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = Logout(env) })
	if acct.Backend != BackendKeyring {
		t.Fatalf("backend %s", acct.Backend)
	}
	if _, err := os.Stat(filepath.Join(home, KeyFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("old ncryptsec file survives the keyring re-login: %v", err)
	}
	if got, err := kr.Get(KeyringService, acct.Npub); err != nil || got != sk {
		t.Fatalf("keyring entry: %v", err)
	}
}
