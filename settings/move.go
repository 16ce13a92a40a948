package settings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/roster-cli/roster/internal/filelock"
)

// Move is what MoveFiles did with the files it found in the old place.
type Move struct {
	From, To string
	// Moved are the files now in To only; Kept those left in From because
	// To already holds a different file of one of their names (To's used).
	Moved, Kept []string
	// Leftover are files copied to To whose old copy could not be removed:
	// the next MoveFiles removes it (the two are equal), nothing is lost.
	Leftover map[string]error
}

// Found reports whether there was anything in the old place.
func (m Move) Found() bool { return len(m.Moved)+len(m.Kept)+len(m.Leftover) > 0 }

// MoveError is a move that could not be made: every file is still in From,
// and the caller keeps using From, so nothing becomes unreadable.
type MoveError struct {
	From, To, File string
	Err            error
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("could not move %s from %s to %s (%v); still using %s", e.File, e.From, e.To, e.Err, e.From)
}

func (e *MoveError) Unwrap() error { return e.Err }

// MoveFiles moves the named files from the old directory to the new one,
// all of them or none: each is copied beside its destination under a
// temporary name of its own, synced and linked into place (never replacing
// a file that is already there), in the order given (so a caller names the
// file that refers to the others, account.json, last); only when every copy
// is in place are the old ones removed. A failed copy removes the copies
// this call placed (and only those) and returns a *MoveError with every
// file still in from. A file already in to with the same bytes (a move
// interrupted after its copy) counts as moved; one with other bytes means
// the new place is already in use, and then no file moves (Kept lists them
// all). A process killed at any point leaves each file readable in at least
// one of the two places, and the next call finishes the move.
//
// Several processes may move at once (the first commands after an upgrade,
// run in parallel): the move is made under a lock in to (MoveLockFile,
// held for the move only), and what is where is read again once it is
// held, so the first process moves and the others find the old place
// empty and use the new one. Where the system has no file locks, the
// unique temporary names and link-into-place still keep every file in one
// of the two places.
func MoveFiles(from, to string, names []string) (Move, error) {
	if !anyExists(from, names) {
		return Move{From: from, To: to}, nil
	}
	if err := os.MkdirAll(to, 0o700); err != nil {
		return Move{From: from, To: to}, &MoveError{From: from, To: to, File: names[0], Err: err}
	}
	unlock, err := filelock.Lock(context.Background(), filepath.Join(to, MoveLockFile), moveLockWait)
	if err != nil {
		return Move{From: from, To: to}, &MoveError{From: from, To: to, File: names[0], Err: err}
	}
	defer unlock()
	return moveFiles(from, to, names)
}

// MoveLockFile is the file in the new place that MoveFiles locks while it
// moves (created once, never removed: removing a lock file lets two
// processes lock two different files).
const MoveLockFile = ".roster-move.lock"

// moveLockWait bounds the wait for another process's move (a move takes
// milliseconds; a holder stopped for longer is not waited for, and the
// caller keeps using the old place, where every file still is).
const moveLockWait = 10 * time.Second

// anyExists reports whether any of names is in dir (a file that cannot be
// looked at counts: moveFiles says why).
func anyExists(dir string, names []string) bool {
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(dir, n)); !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

func moveFiles(from, to string, names []string) (Move, error) {
	m := Move{From: from, To: to}
	var pending []string // to copy
	var done []string    // already in to, equal
	for _, n := range names {
		old, err := os.ReadFile(filepath.Join(from, n))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return m, &MoveError{From: from, To: to, File: n, Err: err}
		}
		cur, err := os.ReadFile(filepath.Join(to, n))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			pending = append(pending, n)
		case err == nil && bytes.Equal(cur, old):
			done = append(done, n)
		case err == nil:
			m.Kept = append(m.Kept, n)
		default:
			return m, &MoveError{From: from, To: to, File: n, Err: err}
		}
	}
	if len(m.Kept) > 0 {
		// The new place already holds another account's files: moving the
		// rest in would mix two logins (and a logout of one would delete
		// the other's key). Leave every old file where it is.
		m.Kept = append(append(m.Kept, pending...), done...)
		return m, nil
	}
	if len(pending)+len(done) == 0 {
		return m, nil
	}
	if err := os.MkdirAll(to, 0o700); err != nil {
		return m, &MoveError{From: from, To: to, File: names[0], Err: err}
	}
	type copied struct {
		name string
		file os.FileInfo // what this call placed, to remove only that
	}
	var placed []copied
	for _, n := range pending {
		st, same, err := copyInto(filepath.Join(from, n), to, n)
		if err != nil {
			for _, p := range placed {
				removeIfSame(filepath.Join(to, p.name), p.file)
			}
			return Move{From: from, To: to}, &MoveError{From: from, To: to, File: n, Err: err}
		}
		if same {
			// Another mover placed the same bytes meanwhile: in place,
			// and not this call's to take back.
			done = append(done, n)
			continue
		}
		placed = append(placed, copied{n, st})
	}
	syncDir(to)
	var moved []string
	for _, p := range placed {
		moved = append(moved, p.name)
	}
	for _, n := range append(moved, done...) {
		if err := os.Remove(filepath.Join(from, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			if m.Leftover == nil {
				m.Leftover = map[string]error{}
			}
			m.Leftover[n] = err
			continue
		}
		m.Moved = append(m.Moved, n)
	}
	return m, nil
}

// copyInto copies src to dir/name through a temporary file beside it, with
// a name no other process uses and src's permission bits (0600 for keys),
// synced before it is linked into place so a crash never leaves a
// truncated file under the real name. It never replaces a file at dir/name:
// one that is there already with src's bytes (another mover's) is reported
// as same; any other is an error. It returns what it placed.
func copyInto(src, dir, name string) (placed os.FileInfo, same bool, err error) {
	st, err := os.Stat(src)
	if err != nil {
		return nil, false, err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, false, err
	}
	f, err := os.CreateTemp(dir, "."+name+".moving-*")
	if err != nil {
		return nil, false, err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // linked into place, or abandoned: the temporary name goes
	if err := f.Chmod(st.Mode().Perm()); err != nil {
		f.Close()
		return nil, false, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, false, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, false, err
	}
	if err := f.Close(); err != nil {
		return nil, false, err
	}
	tst, err := os.Lstat(tmp)
	if err != nil {
		return nil, false, err
	}
	dst := filepath.Join(dir, name)
	if err := placeNew(tmp, dst); err != nil {
		if errors.Is(err, fs.ErrExist) {
			if cur, rerr := os.ReadFile(dst); rerr == nil && bytes.Equal(cur, data) {
				return nil, true, nil
			}
		}
		return nil, false, err
	}
	return tst, false, nil
}

// placeNew puts tmp at dst unless something is at dst already (fs.ErrExist):
// a hard link, which fails rather than replaces, where the filesystem has
// them; a rename after a check otherwise.
func placeNew(tmp, dst string) error {
	err := os.Link(tmp, dst)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, lerr := os.Lstat(dst); !errors.Is(lerr, fs.ErrNotExist) {
		return &fs.PathError{Op: "place", Path: dst, Err: fs.ErrExist}
	}
	return os.Rename(tmp, dst)
}

// removeIfSame removes path only while it is still the file placed there
// (never one another process put in its place).
func removeIfSame(path string, placed os.FileInfo) {
	if cur, err := os.Lstat(path); err == nil && os.SameFile(cur, placed) {
		_ = os.Remove(path)
	}
}

// syncDir makes the renames durable before the old copies go; where a
// directory cannot be synced (some filesystems) the rename still happened.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
