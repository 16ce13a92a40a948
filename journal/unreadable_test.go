package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Rule (the journal fails closed): a file that cannot be read as an entry
// and does not say which coordinate it is for (corrupt JSON) may be an
// unfinished write of any coordinate, so asking which writes touch one is
// an error naming the file and the command that forgets it; a readable
// entry of another version naming another coordinate does not stop a write
// of this one, and one naming this coordinate does.
func TestAnUnreadableJournalFileThatMayTouchTheCoordinateIsAnError(t *testing.T) {
	d := Open(t.TempDir())
	evt := signed(t, 30617, "r", 1700000000)
	repo := "30617:" + evt.PubKey + ":r"
	if err := os.MkdirAll(d.Root, 0o700); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(d.Root, strings.Repeat("b", 64)+"-0.json")
	if err := os.WriteFile(corrupt, []byte(`{"version":1,"repo":`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := d.Touching(repo, repo)
	var ue *UnreadableError
	if !errors.As(err, &ue) || !errors.Is(err, ErrUnreadable) || len(ue.Problems) != 1 ||
		!strings.Contains(err.Error(), corrupt) || !strings.Contains(err.Error(), "roster pending discard "+strings.Repeat("b", 12)) {
		t.Fatalf("a corrupt entry: %v", err)
	}
	if err := os.Remove(corrupt); err != nil {
		t.Fatal(err)
	}

	other := filepath.Join(d.Root, strings.Repeat("c", 64)+"-0.json")
	if err := os.WriteFile(other, []byte(`{"version":9,"repo":"30617:`+evt.PubKey+`:other","address":"30617:`+evt.PubKey+`:other"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Touching(repo, repo); err != nil {
		t.Fatalf("an unreadable entry of another coordinate stopped this one: %v", err)
	}
	if _, err := d.Touching("30617:"+evt.PubKey+":other", "30617:"+evt.PubKey+":other"); !errors.As(err, &ue) {
		t.Fatalf("an unreadable entry of the coordinate (another version) did not stop its write: %v", err)
	}
}

// Rule (the journal fails closed): a journal directory that cannot be read
// is an error saying to fix its permissions, never "no unfinished write".
func TestAJournalDirectoryThatCannotBeReadIsAnError(t *testing.T) {
	data := t.TempDir()
	// A file where the directory should be: reading it fails for root too.
	if err := os.WriteFile(filepath.Join(data, "journal"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := Open(data)
	_, err := d.Touching("30617:" + strings.Repeat("a", 64) + ":r")
	var ue *UnreadableError
	if !errors.As(err, &ue) || ue.Err == nil || !strings.Contains(err.Error(), "fix the permissions of "+d.Root) {
		t.Fatalf("an unreadable journal directory: %v", err)
	}
}

// Rule (a corrupt entry can be forgotten): discard names an unreadable file
// by its write id (or a prefix of 8+ hex digits), or by its file name when
// the name carries none, and removes it; a readable write is discarded as
// before.
func TestDiscardForgetsAnUnreadableEntry(t *testing.T) {
	d := Open(t.TempDir())
	evt := signed(t, 30617, "r", 1700000000)
	if err := d.Begin([]Entry{{Pipeline: PipelineMembership, Relays: []string{"ws://a"}, Event: evt}}); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(d.Root, strings.Repeat("b", 64)+"-0.json")
	odd := filepath.Join(d.Root, "notes.json")
	for _, p := range []string{corrupt, odd} {
		if err := os.WriteFile(p, []byte("not json"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if w, ps, err := d.Discard(strings.Repeat("b", 10)); err != nil || w != nil || len(ps) != 1 || ps[0].File != corrupt {
		t.Fatalf("discard of a corrupt entry: %v %v %v", w, ps, err)
	}
	if w, ps, err := d.Discard("notes.json"); err != nil || w != nil || len(ps) != 1 {
		t.Fatalf("discard of a file by name: %v %v %v", w, ps, err)
	}
	if w, ps, err := d.Discard(evt.ID[:12]); err != nil || w == nil || w.ID != evt.ID || len(ps) != 0 {
		t.Fatalf("discard of a write: %v %v %v", w, ps, err)
	}
	if w, ps, err := d.Discard(strings.Repeat("e", 12)); err != nil || w != nil || len(ps) != 0 {
		t.Fatalf("discard of nothing: %v %v %v", w, ps, err)
	}
	if names, _ := d.names(); len(names) != 0 {
		t.Fatalf("left behind: %v", names)
	}
}

// Rule (the journal fails closed): without a data directory there is no
// journal to keep a write in, so Begin refuses and Touching is an error:
// a write stops instead of signing unjournaled.
func TestAnUnavailableJournalRefusesWritesAndReads(t *testing.T) {
	d := Unavailable(errors.New("no data directory: $HOME is not set"))
	if err := d.Begin([]Entry{{Relays: []string{"ws://a"}, Event: signed(t, 30617, "r", 1)}}); err == nil {
		t.Fatal("an unavailable journal took a write")
	}
	_, err := d.Touching("30617:" + strings.Repeat("a", 64) + ":r")
	if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "--home") {
		t.Fatalf("touching an unavailable journal: %v", err)
	}
}
