package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// gitCheckout makes a real `git` checkout with one commit and returns its
// directory.
func gitCheckout(t *testing.T) string {
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

// Rule (fail closed: a comparison that cannot be made is a failure, not a
// pass): accepting compares the checkout's complete ref map with the state
// the acceptance would activate, so an accept in a checkout whose refs
// cannot be read (here a malformed packed-refs line) is refused, naming the
// file, and publishes nothing.
func TestAcceptInACheckoutWithUnreadableRefsIsRefused(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	w.dir = gitCheckout(t)
	packed := filepath.Join(w.dir, ".git", "packed-refs")
	data, err := os.ReadFile(packed)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(packed, append(data, []byte("not-an-object-id refs/heads/broken\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	m := w.refused(bob, alice, 2000, cmdutil.ExitRefused, "local-refs-unreadable", "repo", "accept")
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, ".git/packed-refs") || !strings.Contains(msg, "nothing was published") {
		t.Fatalf("message %q does not name the file or say nothing was published", msg)
	}
	// Repaired, the same accept goes through.
	if err := os.WriteFile(packed, data, 0o644); err != nil {
		t.Fatal(err)
	}
	w.ok(bob, alice, 2100, "repo", "accept")
}
