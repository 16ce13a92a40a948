package preflight

import (
	"strings"
	"testing"
)

// Rule (--force is guarded against the state in effect): a change to the
// current state that the other view's force_would did not list, and that
// drops a commit the checkout does not contain, is refused unless its ref
// is named with --rewind; a fast-forward of it, or a named ref, passes and
// is listed in force_current.
func TestForceRewindsAreListedAndRefusedUnlessNamed(t *testing.T) {
	t.Parallel()
	carol := strings.Repeat("c", 64)
	current := &ResolvedState{EventID: "e", Author: carol, Head: "refs/heads/main", Refs: map[string]string{"refs/heads/main": "x2", "refs/heads/dev": "d1"}}
	mine := &ResolvedState{Head: "refs/heads/main", Refs: map[string]string{"refs/heads/main": "x1", "refs/heads/dev": "d2"}}
	c := StateComparison{ForceWould: []RefAction{{Action: "update", Ref: "refs/heads/main", From: "b1", To: "x1"}}}
	in := StateInput{Before: current, Contained: map[string]bool{"refs/heads/dev": true}, Now: 7200, BeforeAt: 0 + 1}
	got, r := forceRewinds(c, in, mine)
	if r == nil || r.Code != "force-rewinds" || !strings.Contains(r.Message, "rewinds refs/heads/main from x2 (") || strings.Contains(r.Message, "refs/heads/dev from") {
		t.Fatalf("refusal %+v", r)
	}
	if len(got.ForceCurrent) != 2 {
		t.Fatalf("force_current %v: both changes to the current state are listed", got.ForceCurrent)
	}
	in.Rewind = []string{"refs/heads/main"}
	if _, r := forceRewinds(c, in, mine); r != nil {
		t.Fatalf("a named ref is still refused: %v", r.Message)
	}
	// The same change as the other view's: already shown, not guarded twice.
	in.Rewind = nil
	in.Before = &ResolvedState{Author: carol, Refs: map[string]string{"refs/heads/main": "b1"}}
	if _, r := forceRewinds(c, in, &ResolvedState{Refs: map[string]string{"refs/heads/main": "x1"}}); r != nil {
		t.Fatalf("the other view's own change refused: %v", r.Message)
	}
}
