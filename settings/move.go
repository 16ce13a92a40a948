package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
// all of them or none: each is copied beside its destination, synced and
// renamed into place, in the order given (so a caller names the file that
// refers to the others, account.json, last); only when every copy is in
// place are the old ones removed. A failed copy removes the copies this call
// made and returns a *MoveError with every file still in from. A file
// already in to with the same bytes (a move interrupted after its copy)
// counts as moved; one with other bytes means the new place is already in
// use, and then no file moves (Kept lists them all). A process killed at any point leaves each file readable in
// at least one of the two places, and the next call finishes the move.
func MoveFiles(from, to string, names []string) (Move, error) {
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
	var placed []string
	for _, n := range pending {
		if err := copyInto(filepath.Join(from, n), to, n); err != nil {
			for _, p := range placed {
				_ = os.Remove(filepath.Join(to, p))
			}
			return Move{From: from, To: to}, &MoveError{From: from, To: to, File: n, Err: err}
		}
		placed = append(placed, n)
	}
	syncDir(to)
	for _, n := range append(placed, done...) {
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
// src's permission bits (0600 for keys), synced before the rename so a crash
// never leaves a truncated file under the real name. The temporary name is
// fixed: a leftover from a killed move is overwritten, not accumulated.
func copyInto(src, dir, name string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+name+".moving")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if err := f.Chmod(st.Mode().Perm()); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// syncDir makes the renames durable before the old copies go; where a
// directory cannot be synced (some filesystems) the rename still happened.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
