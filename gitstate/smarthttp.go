package gitstate

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ServeSmartHTTP serves the bare repository bare read-only over Git's smart
// HTTP protocol on loopback (git http-backend behind net/http/cgi), as a
// forge serves a clone URL: what the demo announces is fetched the way a
// user's clone is, not over file://. It returns the repository's URL and a
// function that stops the server.
func ServeSmartHTTP(bare string) (url string, stop func(), err error) {
	const need = "serving the demo's Git repository over HTTP"
	out, err := runGit(filepath.Dir(bare), need, "--exec-path")
	if err != nil {
		return "", nil, err
	}
	backend := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		return "", nil, fmt.Errorf("%s: git http-backend is not installed (%w)", need, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", need, err)
	}
	h := &cgi.Handler{Path: backend, Env: append(gitEnv(),
		"GIT_PROJECT_ROOT="+filepath.Dir(bare), "GIT_HTTP_EXPORT_ALL=1"), Stderr: io.Discard}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(os.Stderr, "roster: %s: %v\n", need, err)
		}
	}()
	return "http://" + ln.Addr().String() + "/" + filepath.Base(bare), func() { _ = srv.Close() }, nil
}
