package pending

import (
	"os"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// A kept import reads back byte for byte, only its owner can read the file,
// a tampered file is never returned, and Drop forgets it.
func TestPendingImportRoundTrip(t *testing.T) {
	d := Dir{Root: t.TempDir()}
	owner := strings.Repeat("ab", 32)
	if evt, err := d.Pending("127.0.0.1:7777", owner); evt != nil || err != nil {
		t.Fatalf("empty dir: %v %v", evt, err)
	}
	evt := &nostr.Event{Kind: 9050, CreatedAt: 1700000000, Tags: nostr.Tags{{"p", owner}, {"action", "x"}}, Content: `{"version":1}`}
	if err := evt.Sign(strings.Repeat("31", 32)); err != nil {
		t.Fatal(err)
	}
	if err := d.Keep("127.0.0.1:7777", owner, evt); err != nil {
		t.Fatal(err)
	}
	p := d.Path("127.0.0.1:7777", owner)
	if strings.Contains(p[len(d.Root):], ":") {
		t.Errorf("path %s keeps a ':'", p)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	got, err := d.Pending("127.0.0.1:7777", owner)
	if err != nil || got.ID != evt.ID || got.Sig != evt.Sig || got.Content != evt.Content || got.Serialize() == nil || string(got.Serialize()) != string(evt.Serialize()) {
		t.Fatalf("read back %+v %v", got, err)
	}
	b, _ := os.ReadFile(p)
	_ = os.WriteFile(p, []byte(strings.Replace(string(b), `{\"version\":1}`, `{\"version\":2}`, 1)), 0o600)
	if _, err := d.Pending("127.0.0.1:7777", owner); err == nil {
		t.Fatal("a tampered pending import was returned")
	}
	if err := d.Drop("127.0.0.1:7777", owner); err != nil {
		t.Fatal(err)
	}
	if err := d.Drop("127.0.0.1:7777", owner); err != nil {
		t.Fatal(err)
	}
	if evt, _ := d.Pending("127.0.0.1:7777", owner); evt != nil {
		t.Fatal("dropped import still pending")
	}
}
