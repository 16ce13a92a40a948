package clitest

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

// GitWork is a Git repository made with the git binary, for end-to-end
// tests that need real objects: a work repository (a checkout) or a bare
// one served over file://.
type GitWork struct {
	T   testing.TB
	Dir string
}

// NewGitWork makes a work repository on branch main.
func NewGitWork(t testing.TB) *GitWork {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests need the git binary: %v", err)
	}
	g := &GitWork{T: t, Dir: t.TempDir()}
	g.Git("init", "-q", "-b", "main")
	return g
}

// NewBareServer makes an empty bare repository and returns it with its
// smart-HTTP URL (git http-backend behind net/http/cgi on loopback, pushes
// allowed): a server anybody in the test can fetch from, as a clone URL in
// someone else's announcement must be (another maintainer's file:// URL is
// never evidence that objects are available).
func NewBareServer(t testing.TB) (*GitWork, string) {
	t.Helper()
	g := &GitWork{T: t, Dir: filepath.Join(t.TempDir(), "srv.git")}
	(&GitWork{T: t, Dir: filepath.Dir(g.Dir)}).Git("init", "-q", "--bare", "-b", "main", g.Dir)
	g.Git("config", "http.receivepack", "true")
	return g, ServeSmartHTTP(t, g.Dir)
}

// ServeSmartHTTP serves the bare repository dir with git http-backend and
// returns its URL; the server closes when the test ends.
func ServeSmartHTTP(t testing.TB, dir string) string {
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

func (g *GitWork) Git(args ...string) string {
	g.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = g.Dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Commit makes an empty commit on the current branch and returns its id.
func (g *GitWork) Commit(msg string) string {
	g.T.Helper()
	g.Git("commit", "-q", "--allow-empty", "-m", msg)
	return g.Git("rev-parse", "HEAD")
}

// Rev is the object id of rev.
func (g *GitWork) Rev(rev string) string { g.T.Helper(); return g.Git("rev-parse", rev) }

// PushTo pushes refspecs to a bare repository.
func (g *GitWork) PushTo(bare *GitWork, refspecs ...string) {
	g.T.Helper()
	g.Git(append([]string{"push", "-q", bare.Dir}, refspecs...)...)
}
