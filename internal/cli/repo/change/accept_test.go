package change_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (fail closed: a comparison that cannot be made is a failure, not a
// pass): accepting compares the checkout's complete ref map with the state
// the acceptance would activate, so an accept in a checkout whose refs
// cannot be read (here a malformed packed-refs line) is refused, naming the
// file, and publishes nothing.
func TestAcceptInACheckoutWithUnreadableRefsIsRefused(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	w.Dir = clitest.GitCheckout(t)
	packed := filepath.Join(w.Dir, ".git", "packed-refs")
	data, err := os.ReadFile(packed)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(packed, append(data, []byte("not-an-object-id refs/heads/broken\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	m := w.Refused(clitest.Bob, clitest.Alice, 2000, cmdutil.ExitRefused, "local-refs-unreadable", "repo", "accept")
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, ".git/packed-refs") || !strings.Contains(msg, "nothing was published") {
		t.Fatalf("message %q does not name the file or say nothing was published", msg)
	}
	// Repaired, the same accept goes through.
	if err := os.WriteFile(packed, data, 0o644); err != nil {
		t.Fatal(err)
	}
	w.Ok(clitest.Bob, clitest.Alice, 2100, "repo", "accept")
}
