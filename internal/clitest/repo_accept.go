package clitest

import (
	"os/exec"
	"testing"
)

// GitCheckout makes a real `git` checkout with one commit and returns its
// directory.
func GitCheckout(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", dir},
		{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "--allow-empty", "-m", "root"},
		{"-C", dir, "tag", "v1"},
		{"-C", dir, "pack-refs", "--all"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}
