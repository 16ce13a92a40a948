package gitstate

import (
	"io"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitServer is a bare repository made with the git binary, reachable as
// file:// and, once serveHTTP is called, over Git's smart HTTP protocol
// (git http-backend behind net/http/cgi on a loopback httptest server).
type gitServer struct {
	t    testing.TB
	root string // GIT_PROJECT_ROOT
	name string // repository directory under root
}

// newGitServer makes an empty bare repository.
func newGitServer(t testing.TB) *gitServer {
	t.Helper()
	s := &gitServer{t: t, root: t.TempDir(), name: "repo.git"}
	bare := &testRepo{t: t, dir: s.root}
	bare.git("init", "-q", "--bare", "-b", "main", s.name)
	return s
}

func (s *gitServer) dir() string { return filepath.Join(s.root, s.name) }

// fileURL is the repository as a file:// URL.
func (s *gitServer) fileURL() string { return "file://" + s.dir() }

// serveHTTP serves the repository with git http-backend and returns its
// smart-HTTP URL; the server is closed when the test ends.
func (s *gitServer) serveHTTP() (string, *httptest.Server) {
	s.t.Helper()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		s.t.Fatalf("git --exec-path: %v", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	if _, err := exec.LookPath(backend); err != nil {
		s.t.Fatalf("these tests need git http-backend: %v", err)
	}
	h := &cgi.Handler{Path: backend, Env: []string{
		"GIT_PROJECT_ROOT=" + s.root, "GIT_HTTP_EXPORT_ALL=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
	}, Stderr: io.Discard} // "not a git repository" is what some cases expect
	srv := httptest.NewServer(h)
	s.t.Cleanup(srv.Close)
	return srv.URL + "/" + s.name, srv
}

// push pushes refspecs from the work repository into the bare one.
func (s *gitServer) push(from *testRepo, refspecs ...string) {
	s.t.Helper()
	from.git(append([]string{"push", "-q", s.dir()}, refspecs...)...)
}

// downURL is the URL of an HTTP server that has stopped: connections to it
// are refused.
func downURL(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL + "/gone.git"
	srv.Close()
	return u
}

// serveGitDaemon serves the server's root over the git:// protocol: each
// loopback connection is handed to `git daemon --inetd`. It returns the
// repository's git:// URL; the listener closes when the test ends.
func (s *gitServer) serveGitDaemon() string {
	s.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				f, err := conn.(*net.TCPConn).File()
				if err != nil {
					return
				}
				defer f.Close()
				cmd := exec.Command("git", "daemon", "--inetd", "--export-all", "--base-path="+s.root)
				cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
				cmd.Stdin, cmd.Stdout = f, f
				_ = cmd.Run()
			}()
		}
	}()
	return "git://" + ln.Addr().String() + "/" + s.name
}
