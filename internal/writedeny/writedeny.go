// Package writedeny is a test helper: it makes a file or directory really
// unwritable and says how, for tests of what roster does when the
// operating system refuses a write. Tests may run as root, where a chmod
// denies nothing; then the immutable attribute (chattr +i), which binds
// root too, is tried. Only tests import it.
package writedeny

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Deny makes path (a file or a directory) unwritable until the test ends
// and returns how ("chmod" or "chattr +i"), or "" when neither denies a
// write on this machine: the caller then says so and tests its path
// through a seam instead. A denial is only reported once a write was
// really refused.
func Deny(t testing.TB, path string) string {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	mode := st.Mode().Perm()
	if err := os.Chmod(path, mode&^0o222); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(path, mode) })
	if refused(path, st.IsDir()) {
		return "chmod"
	}
	if _, err := exec.LookPath("chattr"); err != nil {
		return ""
	}
	if err := exec.Command("chattr", "+i", path).Run(); err != nil {
		return ""
	}
	// Registered after the chmod's: cleanups run last-in first-out, so the
	// attribute is gone before the mode is restored and t.TempDir removes it.
	t.Cleanup(func() { _ = exec.Command("chattr", "-i", path).Run() })
	if refused(path, st.IsDir()) {
		return "chattr +i"
	}
	return ""
}

// refused tries the write: opening the file for writing, or creating a
// file in the directory.
func refused(path string, dir bool) bool {
	if dir {
		f, err := os.CreateTemp(path, ".probe-*")
		if err == nil {
			_ = f.Close()
			_ = os.Remove(filepath.Join(path, filepath.Base(f.Name())))
			return false
		}
		return errors.Is(err, fs.ErrPermission)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err == nil {
		_ = f.Close()
		return false
	}
	return errors.Is(err, fs.ErrPermission)
}

// MustDeny is Deny for a test with no other way to reach its path: where
// this machine can deny no write it fails, naming what is missing, rather
// than skipping and passing without testing anything.
func MustDeny(t testing.TB, path string) string {
	t.Helper()
	how := Deny(t, path)
	if how == "" {
		t.Fatalf("cannot make %s unwritable here: chmod denies nothing to this user (root) and chattr +i is missing or unsupported; install e2fsprogs (chattr) or run the tests as a non-root user", path)
	}
	return how
}
