package main

import (
	"io"
	"net/http/cgi"
	"net/http/httptest"
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
// smart-HTTP URL (git http-backend behind net/http/cgi on loopback, pushes
// allowed): a server anybody in the test can fetch from, as a clone URL in
// someone else's announcement must be (another maintainer's file:// URL is
// never evidence that objects are available).
func newBareServer(t testing.TB) (*gitWork, string) {
	t.Helper()
	g := &gitWork{t: t, dir: filepath.Join(t.TempDir(), "srv.git")}
	(&gitWork{t: t, dir: filepath.Dir(g.dir)}).git("init", "-q", "--bare", "-b", "main", g.dir)
	g.git("config", "http.receivepack", "true")
	return g, serveSmartHTTP(t, g.dir)
}

// serveSmartHTTP serves the bare repository dir with git http-backend and
// returns its URL; the server closes when the test ends.
func serveSmartHTTP(t testing.TB, dir string) string {
	t.Helper()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatalf("git --exec-path: %v", err)
	}
	h := &cgi.Handler{Path: filepath.Join(strings.TrimSpace(string(out)), "git-http-backend"), Env: []string{
		"GIT_PROJECT_ROOT=" + filepath.Dir(dir), "GIT_HTTP_EXPORT_ALL=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
	}, Stderr: io.Discard}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/" + filepath.Base(dir)
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
