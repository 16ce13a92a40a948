package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (recheck before signing: re-read every announcement id the preview
// used and abort if one changed); maintainers.md: "Membership preflight rechecks every
// announcement and kind 30618 event ID used by the preview immediately
// before signing." A deletion request is part of what the preview used: Bob
// deleting his announcement between preview and signing changes who is a
// maintainer, so the add aborts with "rerun the command" and nothing of
// Alice's is published.
func TestConcurrentDeletionBetweenPreviewAndPublishAborts(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	w.Seams.BeforeRecheck = func() {
		w.Seed(clitest.Bob.Sign(t, nostr.KindDeletion, 2500, nostr.Tag{"a", "30617:" + clitest.Bob.Pk + ":" + w.Id}))
	}
	// The relay applies the deletion to Bob's events, so count Alice's.
	mine := func() int { return len(w.Relays[0].Stored(nostr.Filter{Authors: []string{clitest.Alice.Pk}})) }
	stored := mine()
	r := w.Run(clitest.Alice, clitest.Alice, 3000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"code": "concurrent-change"`) || !strings.Contains(r.Out, "rerun the command") ||
		!strings.Contains(r.Out, "deletion") {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if mine() != stored {
		t.Fatalf("the relay stores %d events by alice, want %d: something was published", mine(), stored)
	}
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "2000"), clitest.Projection(clitest.Alice, clitest.Bob))
}
