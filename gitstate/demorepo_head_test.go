package gitstate

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The demo carries the tour: its Git server's HEAD names an existing
// branch, so `git clone` of the announced URL checks out main, with
// release-1.x and the tag v1.0.0 there too.
func TestDemoRepositoryCloneChecksOutMain(t *testing.T) {
	url, refs, err := DemoRepository(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", url, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone %s: %v\n%s", url, err, out)
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	if head := git("symbolic-ref", "HEAD"); head != "refs/heads/main" {
		t.Fatalf("the clone's HEAD is %s, want refs/heads/main", head)
	}
	if got := git("rev-parse", "HEAD"); got != refs["refs/heads/main"] {
		t.Fatalf("the clone is at %s, want main %s", got, refs["refs/heads/main"])
	}
	if got := git("rev-parse", "origin/release-1.x"); got != refs["refs/heads/release-1.x"] {
		t.Fatalf("origin/release-1.x is %s, want %s", got, refs["refs/heads/release-1.x"])
	}
	if got := git("tag", "--list"); got != "v1.0.0" {
		t.Fatalf("tags %q, want v1.0.0", got)
	}
}
