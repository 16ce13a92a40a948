package gitstate

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// populate gives a repository everything roster reads: branches, a
// lightweight tag, an annotated tag and a tag of a tag, remotes with url
// and pushurl, a tracked remote and nostr.repo.
func populate(r *testRepo) {
	r.t.Helper()
	r.commit("root")
	r.git("branch", "feature")
	r.commit("two")
	r.git("tag", "light", "feature")
	r.git("tag", "-a", "-m", "annotated", "v1")
	r.git("tag", "-a", "-m", "tag of a tag", "v1-signed", "v1")
	r.git("remote", "add", "origin", "https://git.example/repo.git")
	r.git("config", "--add", "remote.origin.url", nurl(alicePK, "repo", "wss://relay.one"))
	r.git("config", "--add", "remote.origin.pushurl", "ssh://git@git.example/repo.git")
	r.git("remote", "add", "upstream", nurl(bobPK, "repo"))
	r.git("config", "branch.main.remote", "upstream")
	r.git("config", "branch.main.merge", "refs/heads/main")
	r.git("config", "nostr.repo", EncodeNaddr(coord(carolPK, "repo"), []string{"wss://relay.two"}))
}

// gitRefs is what git itself says LocalRefs must return.
func gitRefs(r *testRepo) map[string]string {
	r.t.Helper()
	want := map[string]string{}
	for _, line := range strings.Split(r.git("for-each-ref", "--format=%(refname) %(objectname) %(objecttype)", "refs/heads", "refs/tags"), "\n") {
		f := strings.Fields(line)
		want[f[0]] = f[1]
		if f[2] == "tag" {
			want[f[0]+"^{}"] = r.git("rev-parse", f[0]+"^{}")
		}
	}
	if head, err := exec.Command("git", "-C", r.dir, "symbolic-ref", "-q", "HEAD").Output(); err == nil {
		want["HEAD"] = "ref: " + strings.TrimSpace(string(head))
	} else {
		want["HEAD"] = r.git("rev-parse", "HEAD")
	}
	return want
}

// reading is every answer gitstate gives about a checkout, errors as text.
type reading struct {
	Dir, Root, RootErr string
	Refs               map[string]string
	RefsErr            string
	Remotes            map[string]RemoteURLs
	RemotesErr         string
	Clone              []string
	Resolved           map[string]string
}

func read(c *Checkout) reading {
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	var rd reading
	rd.Dir = c.Dir()
	root, err := c.RootCommit()
	rd.Root, rd.RootErr = root, errText(err)
	refs, err := c.LocalRefs()
	rd.Refs, rd.RefsErr = refs, errText(err)
	remotes, err := c.Remotes()
	rd.Remotes, rd.RemotesErr = remotes, errText(err)
	rd.Clone = c.OriginCloneURLs()
	rd.Resolved = map[string]string{}
	for _, flag := range []string{"", "origin", "upstream", "nosuch"} {
		sel, err := c.ResolveCoordinate(flag)
		rd.Resolved[flag] = fmt.Sprintf("%+v %v", sel, err)
	}
	return rd
}

// forceGit opens dir through the git command, as Open does when go-git
// refuses the repository.
func forceGit(t *testing.T, dir string) *Checkout {
	t.Helper()
	c, err := openWithGit(dir, errors.New("forced by the test"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Reading a checkout through the git command gives the same answers as
// reading it through go-git, in every shape of checkout go-git opens.
func TestGitCommandReadsWhatGoGitReads(t *testing.T) {
	cases := map[string]func(t *testing.T) string{
		"populated": func(t *testing.T) string { r := newTestRepo(t); populate(r); return r.dir },
		"packed refs, detached HEAD": func(t *testing.T) string {
			r := newTestRepo(t)
			populate(r)
			r.git("pack-refs", "--all")
			r.git("checkout", "-q", "--detach", "feature")
			return r.dir
		},
		"no nostr.repo, tracked remote": func(t *testing.T) string {
			r := newTestRepo(t)
			populate(r)
			r.git("config", "--unset", "nostr.repo")
			return r.dir
		},
		"no commits": func(t *testing.T) string { return newTestRepo(t).dir },
		"shallow clone": func(t *testing.T) string {
			src := newTestRepo(t)
			populate(src)
			dst := filepath.Join(t.TempDir(), "shallow")
			src.git("clone", "-q", "--depth", "1", "file://"+src.dir, dst)
			return dst
		},
		"linked worktree": func(t *testing.T) string {
			r := newTestRepo(t)
			populate(r)
			wt := filepath.Join(t.TempDir(), "wt")
			r.git("worktree", "add", "-q", "-b", "side", wt)
			return wt
		},
		"bare": func(t *testing.T) string {
			r := &testRepo{t: t, dir: t.TempDir()}
			r.git("init", "-q", "--bare")
			r.git("remote", "add", "origin", nurl(alicePK, "bare"))
			return r.dir
		},
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			dir := make(t)
			viaGoGit, err := Open(dir)
			if err != nil || viaGoGit.repo == nil {
				t.Fatalf("Open: %v (go-git: %v)", err, err == nil && viaGoGit.repo != nil)
			}
			want, got := read(viaGoGit), read(forceGit(t, dir))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("through git:\n%+v\nthrough go-git:\n%+v", got, want)
			}
		})
	}
}

// Repository formats go-git refuses are read through the git command, with
// the answers git itself gives; roster also writes their config.
func TestOpenFallsBackToGitForFormatsGoGitRefuses(t *testing.T) {
	// reftable is not among these: the git this project's machines carry
	// (2.39) cannot create it, and a layout roster cannot make is not
	// claimed as tested (docs/checkouts.md).
	layouts := []struct {
		name string
		make func(t *testing.T) *testRepo
	}{{
		name: "sparse checkout (extensions.worktreeConfig)",
		make: func(t *testing.T) *testRepo {
			r := newTestRepo(t)
			populate(r)
			r.git("sparse-checkout", "init")
			// config.worktree is part of the repository's config.
			r.git("config", "--worktree", "remote.wtonly.url", "https://wt.example/repo.git")
			return r
		},
	}, {
		name: "sha256 objects",
		make: func(t *testing.T) *testRepo { r := newTestRepoInit(t, "--object-format=sha256"); populate(r); return r },
	}}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			r := l.make(t)
			if _, err := gogitOpen(r.dir); err == nil {
				t.Fatal("go-git opens this layout; the test no longer exercises the fallback")
			}
			c := r.open()
			if c.repo != nil {
				t.Fatal("Open used go-git")
			}
			if c.Dir() != r.dir {
				t.Fatalf("Dir = %s, want %s", c.Dir(), r.dir)
			}
			refs, err := c.LocalRefs()
			if err != nil || !reflect.DeepEqual(refs, gitRefs(r)) {
				t.Fatalf("LocalRefs = %v, %v\nwant %v", refs, err, gitRefs(r))
			}
			if root, err := c.RootCommit(); err != nil || root != r.git("rev-list", "--max-parents=0", "HEAD") {
				t.Fatalf("RootCommit = %s, %v", root, err)
			}
			if got := c.OriginCloneURLs(); !slices.Equal(got, []string{"https://git.example/repo.git"}) {
				t.Fatalf("OriginCloneURLs = %q", got)
			}
			sel, err := c.ResolveCoordinate("")
			if err != nil || sel.Source != SourceGitConfig || sel.Coordinate != coord(carolPK, "repo") || !slices.Equal(sel.Relays, []string{"wss://relay.two"}) {
				t.Fatalf("ResolveCoordinate = %+v, %v", sel, err)
			}
			if sel, err := c.ResolveCoordinate("upstream"); err != nil || sel.Coordinate != coord(bobPK, "repo") {
				t.Fatalf("ResolveCoordinate(upstream) = %+v, %v", sel, err)
			}
			remotes, err := c.Remotes()
			if err != nil || !slices.Equal(remotes["origin"].PushURLs, []string{"ssh://git@git.example/repo.git"}) {
				t.Fatalf("Remotes = %+v, %v", remotes, err)
			}
			if strings.Contains(l.name, "worktreeConfig") && !slices.Equal(remotes["wtonly"].URLs, []string{"https://wt.example/repo.git"}) {
				t.Fatalf("config.worktree not read: %+v", remotes)
			}

			// Writes go through git too, and read back.
			if err := c.SetNostrRepo(EncodeNaddr(coord(alicePK, "repo"), nil)); err != nil {
				t.Fatal(err)
			}
			r.git("config", "--unset", "branch.main.remote")
			if err := c.SetOrigin(nurl(alicePK, "repo")); err != nil {
				t.Fatal(err)
			}
			moved, err := c.FollowCoordinate(coord(alicePK, "repo"), coord(bobPK, "repo"), nil)
			if err != nil || !slices.Equal(moved, []string{"origin"}) {
				t.Fatalf("FollowCoordinate = %v, %v", moved, err)
			}
			if got := r.git("config", "--get-all", "remote.origin.url"); got != nurl(bobPK, "repo") {
				t.Fatalf("origin url = %q", got)
			}
			if sel, err := c.ResolveCoordinate(""); err != nil || sel.Coordinate != coord(bobPK, "repo") || sel.Source != SourceGitConfig {
				t.Fatalf("after the writes: %+v, %v", sel, err)
			}
		})
	}
}

// gogitOpen is Open's go-git attempt alone.
func gogitOpen(dir string) (*Checkout, error) {
	c, err := Open(dir)
	if err == nil && c.repo == nil {
		return nil, errors.New(c.whyGit)
	}
	return c, err
}

// Without git on PATH, a checkout that needs it is an error naming the fix.
func TestGitMissingErrorNamesTheFix(t *testing.T) {
	sha := newTestRepoInit(t, "--object-format=sha256")
	sha.commit("one")
	inc := newTestRepo(t)
	inc.write("team.gitconfig", "[nostr]\n\trepo = "+EncodeNaddr(coord(alicePK, "r"), nil)+"\n")
	inc.git("config", "include.path", "../team.gitconfig")
	plain := newTestRepo(t)
	t.Setenv("PATH", t.TempDir())

	var missing *GitMissingError
	_, err := Open(sha.dir)
	if !errors.As(err, &missing) || !strings.Contains(err.Error(), "install Git") || !strings.Contains(err.Error(), "objectformat") {
		t.Fatalf("sha256 without git: %v", err)
	}
	if _, err := inc.open().ResolveCoordinate(""); !errors.As(err, &missing) || !strings.Contains(err.Error(), "include") {
		t.Fatalf("includes without git: %v", err)
	}
	before, _ := os.ReadFile(filepath.Join(plain.dir, ".git", "config"))
	if err := plain.open().SetNostrRepo(EncodeNaddr(coord(alicePK, "r"), nil)); !errors.As(err, &missing) {
		t.Fatalf("config edit without git: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(plain.dir, ".git", "config")); string(after) != string(before) {
		t.Fatal("config changed without git")
	}
}

// The user's GIT_* environment cannot point gitstate's git commands at
// another repository or inject config.
func TestGitCommandsIgnoreTheUsersGitEnvironment(t *testing.T) {
	r := newTestRepoInit(t, "--object-format=sha256")
	populate(r)
	other := newTestRepo(t)
	other.commit("elsewhere")
	other.git("config", "nostr.repo", EncodeNaddr(coord(alicePK, "elsewhere"), nil))
	t.Setenv("GIT_DIR", filepath.Join(other.dir, ".git"))
	t.Setenv("GIT_WORK_TREE", other.dir)
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "remote.origin.url")
	t.Setenv("GIT_CONFIG_VALUE_0", "https://injected.example/x.git")
	c := r.open()
	if c.Dir() != r.dir {
		t.Fatalf("Dir = %s", c.Dir())
	}
	if sel, err := c.ResolveCoordinate(""); err != nil || sel.Coordinate != coord(carolPK, "repo") {
		t.Fatalf("ResolveCoordinate = %+v, %v", sel, err)
	}
	if got := c.OriginCloneURLs(); !slices.Equal(got, []string{"https://git.example/repo.git"}) {
		t.Fatalf("OriginCloneURLs = %q", got)
	}
}

// A git command that hangs is stopped after gitTimeout.
func TestGitCommandsTimeOut(t *testing.T) {
	r := newTestRepoInit(t, "--object-format=sha256")
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\nexec "+sleep+" 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	old := gitTimeout
	gitTimeout = 200 * time.Millisecond
	defer func() { gitTimeout = old }()
	_, err = Open(r.dir)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 200ms") {
		t.Fatalf("got %v", err)
	}
}
