package settings

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for n, v := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func wantFile(t *testing.T, path, content string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != content {
		t.Fatalf("%s: %q, %v; want %q", path, b, err, content)
	}
}

func wantNoFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s exists (%v)", path, err)
	}
}

var keyFiles = []string{"key.ncryptsec", "bunker-client.ncryptsec", "account.json"}

// Rule: the files found in the old place are moved once: afterwards they
// are in the new place only, with their bytes and their 0600 mode, and a
// second call finds nothing.
func TestFilesInTheOldPlaceAreMovedOnce(t *testing.T) {
	base := t.TempDir()
	from, to := filepath.Join(base, "old"), filepath.Join(base, "new", "roster")
	writeFiles(t, from, map[string]string{"key.ncryptsec": "ncryptsec1k\n", "account.json": "{}\n", "cache.db": "x"})
	m, err := MoveFiles(from, to, keyFiles)
	if err != nil || !slices.Equal(m.Moved, []string{"key.ncryptsec", "account.json"}) || len(m.Kept) != 0 {
		t.Fatalf("move %+v, %v", m, err)
	}
	wantFile(t, filepath.Join(to, "key.ncryptsec"), "ncryptsec1k\n")
	wantFile(t, filepath.Join(to, "account.json"), "{}\n")
	wantNoFile(t, filepath.Join(from, "key.ncryptsec"))
	wantNoFile(t, filepath.Join(from, "account.json"))
	wantFile(t, filepath.Join(from, "cache.db"), "x") // not named: stays
	if st, err := os.Stat(filepath.Join(to, "key.ncryptsec")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("moved key mode %v, %v", st.Mode(), err)
	}
	if m, err := MoveFiles(from, to, keyFiles); err != nil || m.Found() {
		t.Fatalf("second move %+v, %v", m, err)
	}
}

// Rule: a move that fails part-way leaves every file in the old place,
// readable, and none in the new one: here the second file cannot be placed
// (a dangling symbolic link stands at its name: nothing to read there, and
// a move never replaces what is at a name, which denies even root).
func TestAMoveThatFailsPartWayLeavesTheKeyWhereItWas(t *testing.T) {
	base := t.TempDir()
	from, to := filepath.Join(base, "old"), filepath.Join(base, "new")
	writeFiles(t, from, map[string]string{"key.ncryptsec": "ncryptsec1k\n", "account.json": "{}\n"})
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "nowhere"), filepath.Join(to, "account.json")); err != nil {
		t.Fatal(err)
	}
	_, err := MoveFiles(from, to, keyFiles)
	var me *MoveError
	if !errors.As(err, &me) || me.File != "account.json" || me.From != from {
		t.Fatalf("err %v, want a MoveError for account.json", err)
	}
	wantFile(t, filepath.Join(from, "key.ncryptsec"), "ncryptsec1k\n")
	wantFile(t, filepath.Join(from, "account.json"), "{}\n")
	wantNoFile(t, filepath.Join(to, "key.ncryptsec")) // the copy made before the failure is gone
	if _, err := os.Readlink(filepath.Join(to, "account.json")); err != nil {
		t.Fatalf("the link at account.json was replaced: %v", err)
	}

	// Once the obstacle is gone the move completes.
	if err := os.Remove(filepath.Join(to, "account.json")); err != nil {
		t.Fatal(err)
	}
	if m, err := MoveFiles(from, to, keyFiles); err != nil || len(m.Moved) != 2 {
		t.Fatalf("retry %+v, %v", m, err)
	}
	wantFile(t, filepath.Join(to, "key.ncryptsec"), "ncryptsec1k\n")
}

// Rule: a move interrupted after some copies (a file already in the new
// place with the same bytes) is finished by the next call.
func TestAnInterruptedMoveIsFinished(t *testing.T) {
	base := t.TempDir()
	from, to := filepath.Join(base, "old"), filepath.Join(base, "new")
	writeFiles(t, from, map[string]string{"key.ncryptsec": "k", "account.json": "a"})
	writeFiles(t, to, map[string]string{"key.ncryptsec": "k"})
	m, err := MoveFiles(from, to, keyFiles)
	if err != nil || len(m.Moved) != 2 {
		t.Fatalf("move %+v, %v", m, err)
	}
	wantFile(t, filepath.Join(to, "account.json"), "a")
	wantNoFile(t, filepath.Join(from, "key.ncryptsec"))
}

// Rule: when the new place already holds a different file of one of the
// names (another login made there), nothing moves and nothing is
// overwritten: both stay, and the new place is the one used.
func TestAMoveNeverOverwritesADifferentFile(t *testing.T) {
	base := t.TempDir()
	from, to := filepath.Join(base, "old"), filepath.Join(base, "new")
	writeFiles(t, from, map[string]string{"key.ncryptsec": "old key", "account.json": "old account"})
	writeFiles(t, to, map[string]string{"account.json": "new account"})
	m, err := MoveFiles(from, to, keyFiles)
	if err != nil || len(m.Moved) != 0 || len(m.Kept) != 2 {
		t.Fatalf("move %+v, %v", m, err)
	}
	wantFile(t, filepath.Join(from, "key.ncryptsec"), "old key")
	wantFile(t, filepath.Join(from, "account.json"), "old account")
	wantFile(t, filepath.Join(to, "account.json"), "new account")
	wantNoFile(t, filepath.Join(to, "key.ncryptsec"))
}
