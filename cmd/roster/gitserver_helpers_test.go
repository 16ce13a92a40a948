package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitWork is a Git repository made with the git binary, for end-to-end
// tests that need real objects: a work repository (a checkout) or a bare
// one served over file://.
type gitWork struct {
	t   testing.TB
	dir string
}

// newGitWork makes a work repository on branch main.
func newGitWork(t testing.TB) *gitWork {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests need the git binary: %v", err)
	}
	g := &gitWork{t: t, dir: t.TempDir()}
	g.git("init", "-q", "-b", "main")
	return g
}

// newBareServer makes an empty bare repository and returns it with its
// file:// URL.
func newBareServer(t testing.TB) (*gitWork, string) {
	t.Helper()
	g := &gitWork{t: t, dir: filepath.Join(t.TempDir(), "srv.git")}
	(&gitWork{t: t, dir: filepath.Dir(g.dir)}).git("init", "-q", "--bare", "-b", "main", g.dir)
	return g, "file://" + g.dir
}

func (g *gitWork) git(args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = g.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit makes an empty commit on the current branch and returns its id.
func (g *gitWork) commit(msg string) string {
	g.t.Helper()
	g.git("commit", "-q", "--allow-empty", "-m", msg)
	return g.git("rev-parse", "HEAD")
}

// rev is the object id of rev.
func (g *gitWork) rev(rev string) string { g.t.Helper(); return g.git("rev-parse", rev) }

// pushTo pushes refspecs to a bare repository.
func (g *gitWork) pushTo(bare *gitWork, refspecs ...string) {
	g.t.Helper()
	g.git(append([]string{"push", "-q", bare.dir}, refspecs...)...)
}
