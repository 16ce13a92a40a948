package main

import (
	"io"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"
)

// smartHTTPServer is a bare repository served over Git's smart HTTP
// protocol by git http-backend (behind net/http/cgi on loopback), pushes
// allowed, holding main, dev and release-1.x and the tags v1.0 and v1.1.
// It returns the clone URL and the bare repository's directory.
func smartHTTPServer(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	bare := filepath.Join(root, "widget.git")
	plainGit(t, root, "init", "-q", "--bare", "-b", "main", bare)
	plainGit(t, bare, "config", "http.receivepack", "true")
	work := filepath.Join(t.TempDir(), "seed")
	plainGit(t, "", "init", "-q", "-b", "main", work)
	plainGit(t, work, "commit", "-q", "--allow-empty", "-m", "first")
	plainGit(t, work, "tag", "-a", "-m", "v1.0", "v1.0")
	plainGit(t, work, "checkout", "-q", "-b", "release-1.x")
	plainGit(t, work, "commit", "-q", "--allow-empty", "-m", "release fix")
	plainGit(t, work, "tag", "v1.1")
	plainGit(t, work, "checkout", "-q", "-b", "dev", "main")
	plainGit(t, work, "commit", "-q", "--allow-empty", "-m", "work in progress")
	plainGit(t, work, "checkout", "-q", "main")
	plainGit(t, work, "commit", "-q", "--allow-empty", "-m", "second")
	plainGit(t, work, "push", "-q", bare, "main", "dev", "release-1.x", "v1.0", "v1.1")

	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatalf("git --exec-path: %v", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	if _, err := exec.LookPath(backend); err != nil {
		t.Fatalf("this test needs git http-backend: %v", err)
	}
	srv := httptest.NewServer(&cgi.Handler{Path: backend, Env: []string{
		"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
	}, Stderr: io.Discard})
	t.Cleanup(srv.Close)
	return srv.URL + "/widget.git", bare
}

// gitEnv is the environment every git process of these tests runs with:
// nothing from the user's configuration, a fixed identity, and hooks
// that dispatch into this test binary's command tree (runAsRoster).
func gitEnv(extra map[string]string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), clitest.RunAsRoster + "=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com"}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// plainGit runs git in dir (the test's own setup), failing the test on error.
func plainGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := runGitIn(dir, nil, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func runGitIn(dir string, env map[string]string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(env)
	b, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(b)), err
}

// shellUser is one person at a terminal: their own roster home and key,
// and the directory they are in.
type shellUser struct {
	t   *testing.T
	who clitest.Person
	env map[string]string
	cwd string
	// clock, shared by everyone in a scene, dates each roster command 7 s
	// after the previous one, starting an hour ago: the order of the
	// journey's events never depends on how fast the machine is, and the
	// hooks Git runs (on the real clock) see them all in the past.
	clock *sceneClock
}

// sceneClock is a scene's shared clock (shellUser.clock).
type sceneClock struct{ now time.Time }

func (c *sceneClock) next() time.Time {
	c.now = c.now.Add(7 * time.Second)
	return c.now
}

func newShellUser(t *testing.T, p clitest.Person, clock *sceneClock) *shellUser {
	return &shellUser{t: t, who: p, env: clitest.WithKey(clitest.TestEnv(t), p), cwd: t.TempDir(), clock: clock}
}

func newSceneClock() *sceneClock {
	return &sceneClock{now: time.Now().Add(-time.Hour).Truncate(time.Second)}
}

// step is what one pasted line did: the last command's exit code and
// output (stdout then stderr).
type step struct {
	Code     int
	Out, Err string
}

// paste runs one line as printed, the way a POSIX shell runs the forms
// roster prints: "A && B" (stopping at the first failure), "cd DIR",
// "git …", "roster …", words plain or single-quoted, a trailing
// "  # comment" ignored. cd changes the user's directory for later lines.
func (u *shellUser) paste(line string) step {
	u.t.Helper()
	if i := strings.Index(line, "  # "); i >= 0 {
		line = line[:i]
	}
	var last step
	for _, part := range strings.Split(strings.TrimSpace(line), " && ") {
		words := clitest.ShellWords(u.t, part)
		if len(words) == 0 {
			u.t.Fatalf("empty command in %q", line)
		}
		switch words[0] {
		case "cd":
			d := words[1]
			if !filepath.IsAbs(d) {
				d = filepath.Join(u.cwd, d)
			}
			u.cwd = d
			last = step{}
		case "git":
			out, err := runGitIn(u.cwd, u.env, words[1:]...)
			last = step{Out: out}
			if err != nil {
				last.Code = 1
				if ee, ok := err.(*exec.ExitError); ok {
					last.Code = ee.ExitCode()
				}
			}
		case "roster":
			r := clitest.Invocation{Env: u.env, Dir: u.cwd, Now: u.clock.next()}.Roster(u.t, words[1:]...)
			last = step{Code: r.Code, Out: r.Out, Err: r.Err}
		default:
			u.t.Fatalf("%s: a command roster does not print: %q", line, part)
		}
		if last.Code != 0 {
			return last
		}
	}
	return last
}

// mustPaste is paste that must exit 0.
func (u *shellUser) mustPaste(line string) step {
	u.t.Helper()
	s := u.paste(line)
	if s.Code != 0 {
		u.t.Fatalf("%s, in %s: exit %d\nout: %s\nerr: %s", u.who.Name, u.cwd, s.Code, s.Out, s.Err)
	}
	return s
}

// printedAfter is the indented lines roster printed under the first line
// of out matching heading, up to the next line that is not indented.
func printedAfter(t *testing.T, out, heading string) []string {
	t.Helper()
	re := regexp.MustCompile(heading)
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !re.MatchString(l) {
			continue
		}
		var got []string
		for _, m := range lines[i+1:] {
			if !strings.HasPrefix(m, "  ") {
				break
			}
			got = append(got, strings.TrimSpace(m))
		}
		return got
	}
	t.Fatalf("no %q in:\n%s", heading, out)
	return nil
}

// printedCommand is the roster or git command after the last "run: ",
// "with: " or ": " on the first line of out containing marker.
func printedCommand(t *testing.T, out, marker string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, marker) {
			continue
		}
		for _, sep := range []string{"run: ", "with: ", ": "} {
			if i := strings.LastIndex(l, sep); i >= 0 {
				cmd := strings.TrimSpace(l[i+len(sep):])
				if strings.HasPrefix(cmd, "roster ") || strings.HasPrefix(cmd, "git ") {
					return cmd
				}
			}
		}
	}
	t.Fatalf("no command on a line with %q in:\n%s", marker, out)
	return ""
}
