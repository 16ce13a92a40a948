package gitstate

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRootCommitFollowsFirstParents(t *testing.T) {
	r := newTestRepo(t)
	if _, err := r.open().RootCommit(); !errors.Is(err, ErrNoCommits) {
		t.Fatalf("empty repo: %v, want ErrNoCommits", err)
	}
	root := r.commit("root")
	r.commit("two")
	// Merge an unrelated history: its root must not be chosen.
	r.git("checkout", "-q", "--orphan", "other")
	r.commit("other root")
	r.git("checkout", "-q", "main")
	r.git("merge", "-q", "--allow-unrelated-histories", "-m", "merge", "other")
	got, err := r.open().RootCommit()
	if err != nil {
		t.Fatal(err)
	}
	if got != root {
		t.Fatalf("RootCommit = %s, want %s", got, root)
	}
}

func TestRootCommitOfShallowCloneSaysHowToFix(t *testing.T) {
	src := newTestRepo(t)
	src.commit("one")
	src.commit("two")
	dst := filepath.Join(t.TempDir(), "shallow")
	src.git("clone", "-q", "--depth", "1", "file://"+src.dir, dst)
	c, err := Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.RootCommit()
	if !errors.Is(err, ErrShallow) || !strings.Contains(err.Error(), "git fetch --unshallow") {
		t.Fatalf("got %v", err)
	}
}

func TestLocalRefsInStateShape(t *testing.T) {
	r := newTestRepo(t)
	c1 := r.commit("one")
	r.git("branch", "feature")
	c2 := r.commit("two")
	r.git("tag", "light", c1)
	r.git("tag", "-a", "-m", "annotated", "v1.0", c2)
	tagObj := r.git("rev-parse", "v1.0")
	got, err := r.open().LocalRefs()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"HEAD":               "ref: refs/heads/main",
		"refs/heads/main":    c2,
		"refs/heads/feature": c1,
		"refs/tags/light":    c1,
		"refs/tags/v1.0":     tagObj,
		"refs/tags/v1.0^{}":  c2,
	}
	if len(got) != len(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("%s = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	// Packed refs (with peeled lines) read the same.
	r.git("pack-refs", "--all")
	packed, err := r.open().LocalRefs()
	if err != nil || !reflect.DeepEqual(packed, got) {
		t.Fatalf("after pack-refs: %v, %v", packed, err)
	}
	r.git("checkout", "-q", "--detach", c1)
	got, err = r.open().LocalRefs()
	if err != nil || got["HEAD"] != c1 {
		t.Fatalf("detached HEAD: %q, %v", got["HEAD"], err)
	}
}
