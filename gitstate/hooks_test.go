package gitstate

import (
	"path/filepath"
	"strings"
	"testing"
)

// Hooks run from .git/hooks unless core.hooksPath names another directory,
// relative to the work-tree root; in a linked worktree they are the main
// repository's.
func TestHooksDirHonoursCoreHooksPath(t *testing.T) {
	r := newTestRepo(t)
	d, err := r.open().HooksDir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(r.dir, ".git", "hooks"); !samePath(d.Path, want) || d.HooksPath != "" {
		t.Fatalf("default: %+v, want %s and no core.hooksPath", d, want)
	}
	r.git("config", "core.hooksPath", "tools/hooks")
	if d, err = r.open().HooksDir(); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(r.dir, "tools", "hooks"); !samePath(d.Path, want) || d.HooksPath != "tools/hooks" {
		t.Fatalf("core.hooksPath: %+v, want %s", d, want)
	}

	r.git("config", "--unset", "core.hooksPath")
	r.commit("first")
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", "-b", "side", wt)
	linked, err := Open(wt)
	if err != nil {
		t.Fatal(err)
	}
	if d, err = linked.HooksDir(); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(r.dir, ".git", "hooks"); !samePath(d.Path, want) {
		t.Fatalf("linked worktree: %s, want the main repository's %s", d.Path, want)
	}
}

func samePath(a, b string) bool { return filepath.Clean(a) == filepath.Clean(b) }

// A commit descends from itself and its parents, not from a sibling; an
// object the repository does not have is no ancestor of one it has, except
// in a shallow clone, where the answer is unknown.
func TestIsAncestorFollowsHistory(t *testing.T) {
	r := newTestRepo(t)
	base := r.commit("base")
	tip := r.commit("tip")
	r.git("checkout", "-q", "-b", "other", base)
	sibling := r.commit("sibling")
	r.git("tag", "-a", "-m", "v1", "v1", tip)
	tagObj := r.git("rev-parse", "v1")
	co := r.open()
	missing := strings.Repeat("ab", 20)
	for _, c := range []struct {
		anc, desc string
		want      bool
	}{
		{base, tip, true}, {tip, tip, true}, {tip, base, false}, {sibling, tip, false}, {base, sibling, true},
		{base, tagObj, true}, {missing, tip, false},
	} {
		got, err := co.IsAncestor(c.anc, c.desc)
		if err != nil || got != c.want {
			t.Errorf("IsAncestor(%.7s, %.7s) = %v, %v; want %v", c.anc, c.desc, got, err, c.want)
		}
	}
	if _, err := co.IsAncestor(base, missing); err == nil {
		t.Errorf("a pushed commit the repository lacks must be an error, not an answer")
	}

	shallow := &testRepo{t: t, dir: filepath.Join(t.TempDir(), "shallow")}
	r.git("checkout", "-q", "main")
	r.git("clone", "-q", "--depth", "1", "file://"+r.dir, shallow.dir)
	if _, err := shallow.open().IsAncestor(base, tip); err == nil || !strings.Contains(err.Error(), "shallow") {
		t.Errorf("shallow clone without the ancestor: err %v, want unknown (shallow)", err)
	}
}
