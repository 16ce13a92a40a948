package pending

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func signedImport(t *testing.T, owner string) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: 9050, CreatedAt: 1700000000, Tags: nostr.Tags{{"p", owner}, {"action", "x"}}, Content: `{"version":1}`}
	if err := evt.Sign(strings.Repeat("31", 32)); err != nil {
		t.Fatal(err)
	}
	return evt
}

func journalFile(t *testing.T, d Dir) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(d.Root, "journal", "*.json"))
	if len(files) != 1 {
		t.Fatalf("journal files %v, want one", files)
	}
	return files[0]
}

// A kept import reads back byte for byte from the journal, only its owner
// can read the file, a tampered file is never returned, and Drop forgets
// it.
func TestPendingImportRoundTrip(t *testing.T) {
	d := Dir{Root: t.TempDir()}
	owner := strings.Repeat("ab", 32)
	if evt, err := d.Pending("127.0.0.1:7777", owner); evt != nil || err != nil {
		t.Fatalf("empty dir: %v %v", evt, err)
	}
	evt := signedImport(t, owner)
	if err := d.Keep("127.0.0.1:7777", owner, evt); err != nil {
		t.Fatal(err)
	}
	p := journalFile(t, d)
	if strings.Contains(p[len(d.Root):], ":") {
		t.Errorf("path %s keeps a ':'", p)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	got, err := d.Pending("127.0.0.1:7777", owner)
	if err != nil || got.ID != evt.ID || got.Sig != evt.Sig || string(got.Serialize()) != string(evt.Serialize()) {
		t.Fatalf("read back %+v %v", got, err)
	}
	if other, err := d.Pending("127.0.0.1:7778", owner); other != nil || err != nil {
		t.Fatalf("another community's import: %v %v", other, err)
	}
	b, _ := os.ReadFile(p)
	_ = os.WriteFile(p, []byte(strings.Replace(string(b), `{\"version\":1}`, `{\"version\":2}`, 1)), 0o600)
	if _, err := d.Pending("127.0.0.1:7777", owner); err == nil {
		t.Fatal("a tampered pending import was returned")
	}
	_ = os.WriteFile(p, b, 0o600)
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

// An import kept by an earlier version (nip-sw/<community>/<owner>/
// import.json) is still sent again, and the next Keep moves it into the
// journal.
func TestAnImportKeptByAnEarlierVersionIsStillRetried(t *testing.T) {
	d := Dir{Root: t.TempDir()}
	owner := strings.Repeat("ab", 32)
	evt := signedImport(t, owner)
	old := d.legacyPath("127.0.0.1:7777", owner)
	_ = os.MkdirAll(filepath.Dir(old), 0o700)
	b, _ := json.Marshal(evt)
	if err := os.WriteFile(old, b, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := d.Pending("127.0.0.1:7777", owner)
	if err != nil || got == nil || got.ID != evt.ID {
		t.Fatalf("legacy import: %v %v", got, err)
	}
	if err := d.Keep("127.0.0.1:7777", owner, got); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("the legacy file stays: %v", err)
	}
	if got, err := d.Pending("127.0.0.1:7777", owner); err != nil || got == nil || got.ID != evt.ID {
		t.Fatalf("after the move: %v %v", got, err)
	}
}
