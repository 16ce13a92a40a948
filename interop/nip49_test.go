package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/devrelay"
)

// NIP-49, nostr-tools to roster: a key that nostr-tools encrypted is the
// ncryptsec file roster signs with. roster has no `login --ncryptsec`, so
// the test writes the layout `roster login` leaves without a keyring
// (ROSTER_HOME/key.ncryptsec and account.json, both mode 0600); whoami
// names the account without asking for the passphrase, and `repo init`
// signs with the key once given it on stdin.
func TestRosterSignsWithAKeyNostrToolsEncrypted(t *testing.T) {
	t.Parallel()
	const pass = "correct horse battery staple"
	var enc struct {
		Ncryptsec string `json:"ncryptsec"`
	}
	node(t, "nip49-encrypt", map[string]any{"sk": carol.sk, "password": pass, "logn": 16}, &enc)
	if !strings.HasPrefix(enc.Ncryptsec, "ncryptsec1") {
		t.Fatalf("nostr-tools made %q", enc.Ncryptsec)
	}
	home := t.TempDir()
	acct, _ := json.Marshal(map[string]string{"npub": carol.npub(), "pubkey": carol.pk, "backend": "ncryptsec"})
	for name, data := range map[string]string{"key.ncryptsec": enc.Ncryptsec + "\n", "account.json": string(acct) + "\n"} {
		if err := os.WriteFile(filepath.Join(home, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	who, m := run{Home: home}.ok(t, "whoami", "--json")
	if m["npub"] != carol.npub() || m["backend"] != "ncryptsec" {
		t.Fatalf("whoami: %s", who.Out)
	}

	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	r, m := run{Home: home, Dir: gitCheckout(t), Stdin: pass + "\n"}.ok(t, "repo", "init", "--json", "--relay", relay.URL(), "--timeout", "10s")
	evt, _ := m["event"].(map[string]any)
	if evt["pubkey"] != carol.pk || m["verified"] != true {
		t.Fatalf("repo init signed as %v:\n%s\n%s", evt["pubkey"], r.Out, r.Err)
	}
	f := fetchChecked(t, []string{relay.URL()}, "", nostr.Filter{Authors: []string{carol.pk}})
	if len(f.Events) != 1 || f.Events[0].ID != evt["id"] {
		t.Fatalf("nostr-tools fetched %d events by carol", len(f.Events))
	}
	decodePrinted(t, "my-repo", who, r)
}

// NIP-49, roster to nostr-tools: the file `roster login --nsec` writes when
// no OS keyring answers opens with nostr-tools and the same passphrase.
func TestNostrToolsOpensTheKeyFileRosterLoginWrites(t *testing.T) {
	t.Parallel()
	const pass = "another passphrase"
	nsec, err := nip19.EncodePrivateKey(dave.sk)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	r, m := run{Home: home, Stdin: nsec + "\n" + pass + "\n" + pass + "\n"}.ok(t, "login", "--nsec", "--json")
	if m["backend"] != "ncryptsec" || m["npub"] != dave.npub() {
		t.Fatalf("login: %s\n%s", r.Out, r.Err)
	}
	b, err := os.ReadFile(filepath.Join(home, "key.ncryptsec"))
	if err != nil {
		t.Fatal(err)
	}
	var dec struct {
		SK string `json:"sk"`
	}
	node(t, "nip49-decrypt", map[string]any{"ncryptsec": strings.TrimSpace(string(b)), "password": pass}, &dec)
	if dec.SK != dave.sk {
		t.Fatal("nostr-tools decrypts roster's ncryptsec to another key")
	}
	decodePrintedPeople(t, r)
}
