package state_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (a tag is never a fast-forward): re-pointing the annotated tag v1 to
// a new tag object on a commit that descends from its old one is refused
// without --force (exit 3, the tag named, nothing stored) and published
// with it.
func TestStatePublishOfARepointedTagNeedsForce(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	next := s.Clone.Commit("next")
	s.Clone.Git("tag", "-f", "-a", "-m", "v1 again", "v1", next)
	s.Clone.Git("push", "-q", "--force", s.CloneURL, "main", "refs/tags/v1")
	m := s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "not-a-descendant", "repo", "state", "publish")
	if msg := m["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "refs/tags/v1") || !strings.Contains(msg, "a tag that already exists would be re-pointed") {
		t.Fatal(msg)
	}
	f := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--force")
	if refs := f["event"].(map[string]any)["refs"].(map[string]any); f["verified"] != true || refs["refs/tags/v1"] != s.Clone.Rev("v1") || refs["refs/tags/v1^{}"] != next {
		t.Fatalf("%v", f)
	}
}
