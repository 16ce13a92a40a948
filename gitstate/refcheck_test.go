package gitstate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newTestRepoInit is newTestRepo with extra `git init` options.
func newTestRepoInit(t *testing.T, initArgs ...string) *testRepo {
	t.Helper()
	r := &testRepo{t: t, dir: t.TempDir()}
	r.git(append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	return r
}

// A ref store that cannot be read completely makes LocalRefs fail with a
// *RefsError naming the file and the fix, never return a partial map: in a
// checkout go-git reads and in one read through the git command.
func TestLocalRefsFailsClosedOnUnreadableRefs(t *testing.T) {
	type damage struct {
		name     string
		damage   func(r *testRepo)
		path     string
		line     int
		contains []string
		// repair is the fix the error names, after which LocalRefs works.
		repair func(r *testRepo)
	}
	packed := func(r *testRepo, edit func(lines []string) []string) {
		p := filepath.Join(r.dir, ".git", "packed-refs")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := edit(strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	damages := []damage{{
		name: "packed-refs line with three fields",
		// Line 1 is the header, 2 refs/heads/feature, 3 refs/heads/main.
		damage: func(r *testRepo) {
			packed(r, func(l []string) []string { l[2] = strings.Replace(l[2], " ", " x ", 1); return l })
		},
		path: ".git/packed-refs", line: 3,
		contains: []string{".git/packed-refs line 3 is malformed", "correct or remove that line"},
	}, {
		name: "packed-refs line with a short object id",
		damage: func(r *testRepo) {
			packed(r, func(l []string) []string { l[1] = l[1][1:]; return l })
		},
		path: ".git/packed-refs", line: 2,
		contains: []string{"line 2 is malformed"},
	}, {
		name: "packed-refs peeled line without a ref line",
		damage: func(r *testRepo) {
			packed(r, func(l []string) []string {
				return append(l[:1], append([]string{"^" + r.git("rev-parse", "HEAD")}, l[1:]...)...)
			})
		},
		path: ".git/packed-refs", line: 2,
	}, {
		name: "packed-refs blank line",
		damage: func(r *testRepo) {
			packed(r, func(l []string) []string { return append(l[:2], append([]string{""}, l[2:]...)...) })
		},
		path: ".git/packed-refs", line: 3,
	}, {
		name: "dangling symbolic link under refs/heads",
		damage: func(r *testRepo) {
			if err := os.Symlink(filepath.Join(r.dir, "nowhere"), filepath.Join(r.dir, ".git", "refs", "heads", "x")); err != nil {
				t.Fatal(err)
			}
		},
		path:     ".git/refs/heads/x",
		contains: []string{"is a symbolic link to", "which does not exist", "`git update-ref --no-deref -d refs/heads/x`"},
		repair:   func(r *testRepo) { r.git("update-ref", "--no-deref", "-d", "refs/heads/x") },
	}, {
		name:     "dangling symbolic ref under refs/heads",
		damage:   func(r *testRepo) { r.git("symbolic-ref", "refs/heads/y", "refs/heads/gone") },
		path:     ".git/refs/heads/y",
		contains: []string{"dangling symbolic ref: refs/heads/y -> refs/heads/gone", "`git update-ref --no-deref -d refs/heads/y`"},
		repair:   func(r *testRepo) { r.git("update-ref", "--no-deref", "-d", "refs/heads/y") },
	}, {
		name:     "loose tag holding garbage",
		damage:   func(r *testRepo) { r.write(".git/refs/tags/z", "not an object id\n") },
		path:     ".git/refs/tags/z",
		contains: []string{"holds neither an object id", "rm .git/refs/tags/z"},
		repair:   func(r *testRepo) { os.Remove(filepath.Join(r.dir, ".git", "refs", "tags", "z")) },
	}, {
		name:     "empty loose branch",
		damage:   func(r *testRepo) { r.write(".git/refs/heads/empty", "") },
		path:     ".git/refs/heads/empty",
		contains: []string{"is empty"},
	}}
	for _, layout := range []struct {
		name     string
		initArgs []string
		viaGit   bool
	}{{"go-git", nil, false}, {"sha256 via git", []string{"--object-format=sha256"}, true}} {
		for _, d := range damages {
			t.Run(layout.name+"/"+d.name, func(t *testing.T) {
				r := newTestRepoInit(t, layout.initArgs...)
				r.commit("one")
				r.git("branch", "feature")
				r.git("tag", "-a", "-m", "t", "v1")
				r.git("pack-refs", "--all")
				if c := r.open(); (c.repo == nil) != layout.viaGit {
					t.Fatalf("read via git = %v, want %v", c.repo == nil, layout.viaGit)
				}
				d.damage(r)
				refs, err := r.open().LocalRefs()
				var re *RefsError
				if !errors.As(err, &re) || refs != nil {
					t.Fatalf("LocalRefs = %v, %v; want a *RefsError and no map", refs, err)
				}
				if re.Path != d.path || re.Line != d.line {
					t.Fatalf("RefsError at %s line %d, want %s line %d: %v", re.Path, re.Line, d.path, d.line, err)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, "cannot read the checkout's refs: "+d.path) {
					t.Fatalf("message %q", msg)
				}
				for _, s := range d.contains {
					if !strings.Contains(msg, s) {
						t.Fatalf("message %q lacks %q", msg, s)
					}
				}
				if d.repair != nil {
					d.repair(r)
					if _, err := r.open().LocalRefs(); err != nil {
						t.Fatalf("after the named fix: %v", err)
					}
				}
			})
		}
	}
}

// Valid unusual ref files are not errors: a symbolic ref between branches,
// a symbolic link to a ref file, uppercase hex in packed-refs (git accepts it).
func TestLocalRefsAcceptsValidUnusualRefFiles(t *testing.T) {
	r := newTestRepo(t)
	c1 := r.commit("one")
	r.git("branch", "feature")
	r.git("symbolic-ref", "refs/heads/alias", "refs/heads/main")
	if err := os.Symlink("feature", filepath.Join(r.dir, ".git", "refs", "heads", "linked")); err != nil {
		t.Fatal(err)
	}
	got, err := r.open().LocalRefs()
	if err != nil {
		t.Fatal(err)
	}
	if got["refs/heads/linked"] != c1 || got["refs/heads/main"] != c1 {
		t.Fatalf("%v", got)
	}
	if _, ok := got["refs/heads/alias"]; ok {
		t.Fatalf("symbolic ref listed: %v", got)
	}
	os.Remove(filepath.Join(r.dir, ".git", "refs", "heads", "linked"))
	r.git("pack-refs", "--all")
	p := filepath.Join(r.dir, ".git", "packed-refs")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), c1, strings.ToUpper(c1), 1)), 0o644)
	if got, err := r.open().LocalRefs(); err != nil || !strings.EqualFold(got["refs/heads/feature"], c1) {
		t.Fatalf("uppercase packed oid: %v, %v", got, err)
	}
}
