package signer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The test vector printed in the NIP-49 text: password "nostr", log_n 16.
const (
	nip49Vector   = "ncryptsec1qgg9947rlpvqu76pj5ecreduf9jxhselq2nae2kghhvd5g7dgjtcxfqtd67p9m0w57lspw8gsq6yphnm8623nsl8xn9j4jdzz84zm3frztj3z7s35vpzmqf6ksu8r89qk5z2zxfmu5gv8th8wclt0h4p"
	nip49Password = "nostr"
	nip49Secret   = "3501454135014541350145413501453fefb02227e449e57cf4d3a3ce05378683"
)

// NIP-49: "the result should be ... 3501454135014541350145413501453fefb02227e449e57cf4d3a3ce05378683".
// Decrypting the NIP's vector yields its key; sealing that key again and
// opening it yields the same key.
func TestNIP49VectorFromNIPTextRoundTrips(t *testing.T) {
	sk, err := OpenNcryptsec(nip49Vector, nip49Password)
	if err != nil {
		t.Fatal(err)
	}
	if sk != nip49Secret {
		t.Fatalf("vector decrypts to %s, want %s", sk, nip49Secret)
	}
	again, err := SealNcryptsec(sk, nip49Password, 16, false)
	if err != nil {
		t.Fatal(err)
	}
	if again == nip49Vector || !strings.HasPrefix(again, "ncryptsec1") {
		t.Fatalf("re-sealed %q: want a fresh ncryptsec with new salt and nonce", again)
	}
	back, err := OpenNcryptsec(again, nip49Password)
	if err != nil || back != nip49Secret {
		t.Fatalf("re-sealed vector opens to %s, %v", back, err)
	}
}

// NIP-49: the key security byte records whether the key was handled
// insecurely; roster marks a key it generated and never showed 0x01, a typed
// one 0x02.
func TestNIP49KeySecurityByte(t *testing.T) {
	for _, c := range []struct {
		generated bool
		want      byte
	}{{true, 0x01}, {false, 0x02}} {
		nc, err := SealNcryptsec(nip49Secret, "pw", 4, c.generated)
		if err != nil {
			t.Fatal(err)
		}
		if got := ncryptsecKeySecurityByte(t, nc); got != c.want {
			t.Fatalf("generated=%v: key security byte %#x, want %#x", c.generated, got, c.want)
		}
	}
}

func TestWrongPassphraseErrorNamesNoSecret(t *testing.T) {
	nc, err := SealNcryptsec(nip49Secret, nip49Password, 4, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenNcryptsec(nc, "not-the-password")
	if !errors.Is(err, ErrWrongPassphrase) {
		t.Fatalf("err %v, want ErrWrongPassphrase", err)
	}
	if strings.Contains(err.Error(), "not-the-password") || strings.Contains(err.Error(), nc) || strings.Contains(err.Error(), nip49Secret) {
		t.Fatalf("error %q repeats a secret", err)
	}
}

func TestNcryptsecFileIsWrittenMode0600AndRefusedWhenOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "home", KeyFile)
	if err := writeSecretFile(path, []byte(nip49Vector+"\n")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %o, want 600", st.Mode().Perm())
	}
	if got, err := readNcryptsecFile(path); err != nil || got != nip49Vector {
		t.Fatalf("read back %q, %v", got, err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readNcryptsecFile(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("world-readable key file accepted: %v", err)
	}
}
