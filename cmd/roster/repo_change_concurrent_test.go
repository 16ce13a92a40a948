package main

import (
	"strings"
	"testing"

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
	w := twoMaintainers(t)
	w.seams.BeforeRecheck = func() {
		w.seed(bob.sign(t, nostr.KindDeletion, 2500, nostr.Tag{"a", "30617:" + bob.pk + ":" + w.id}))
	}
	// The relay applies the deletion to Bob's events, so count Alice's.
	mine := func() int { return len(w.relays[0].Stored(nostr.Filter{Authors: []string{alice.pk}})) }
	stored := mine()
	r := w.run(alice, alice, 3000, "repo", "edit", "--add-maintainer", carol.npub(), "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"code": "concurrent-change"`) || !strings.Contains(r.Out, "rerun the command") ||
		!strings.Contains(r.Out, "deletion") {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if mine() != stored {
		t.Fatalf("the relay stores %d events by alice, want %d: something was published", mine(), stored)
	}
	w.wantLatest(alice, role("M", alice), role("m", bob, "2000"), projection(alice, bob))
}
