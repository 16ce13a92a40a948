package main

import (
	"strings"
	"testing"
)

// Rule (after publishing: read back, re-resolve and check the result equals
// the preview): every relay accepts and returns the replacement, but the
// repository re-resolved afterwards is not the one the preview showed (Bob
// accepted in the meantime, so he is confirmed, not invited). That is an
// unverified publish (exit 6), not a success.
func TestPublishWhoseReResolutionDiffersFromThePreviewIsExit6(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.seams.afterPublish = func() {
		w.seed(bob.announce(t, w.id, 1000, role("M", alice, "1000"), role("m", bob, "1000"), maintainersTag(alice, bob)))
	}
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--json")
	if r.Code != exitUnverified || !strings.Contains(r.Out, `"code": "unverified"`) ||
		!strings.Contains(r.Out, "the maintainers resolved differ from the preview") {
		t.Fatalf("exit %d, want 6 naming the difference\n%s\n%s", r.Code, r.Out, r.Err)
	}
	// The replacement itself was published and read back: only the
	// comparison failed.
	w.wantLatest(alice, role("M", alice), role("m", bob, "1000"), projection(alice, bob))
	if strings.Contains(r.Out, "did not return it on read-back") {
		t.Fatalf("read-back should have succeeded:\n%s", r.Out)
	}
}
