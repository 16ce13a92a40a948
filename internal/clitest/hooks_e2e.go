package clitest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// RunAsRoster makes this test binary act as the roster binary. `roster
// hooks install` run in-process writes hook files that call os.Executable,
// which in a test is this binary; Git runs those hooks as child processes
// with this variable set (hookWorld.git), so they dispatch into the real
// command tree here instead of running the tests. No separate build, and
// the hooks run exactly the code under test.
const RunAsRoster = "ROSTER_TEST_RUN_AS_ROSTER"

// HookWorld is a real checkout made with git, whose nostr.repo selects
// alice's "proj", a roster home, a signer, and relays holding events.
type HookWorld struct {
	T      *testing.T
	Dir    string
	Env    map[string]string // roster's environment (the viewer's key, the home)
	Relays []*devrelay.Relay
}

func NewHookWorld(t *testing.T, viewer Person, events ...*nostr.Event) *HookWorld {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests need the git binary: %v", err)
	}
	w := &HookWorld{T: t, Dir: filepath.Join(t.TempDir(), "checkout"), Env: WithKey(TestEnv(t), viewer),
		Relays: devrelay.StartN(t, 1, devrelay.Options{})}
	Publish(t, w.Relays[0].URL(), events...)
	w.MustGit("", "init", "-q", "-b", "main", w.Dir)
	w.MustGit(w.Dir, "commit", "-q", "--allow-empty", "-m", "base")
	w.MustGit(w.Dir, "config", "nostr.repo", Alice.Naddr("proj"))
	return w
}

// As switches the signer for later commands and Git runs.
func (w *HookWorld) As(p Person) { w.Env = WithKey(w.Env, p) }

// Roster runs the command tree in-process in the checkout.
func (w *HookWorld) Roster(args ...string) Result {
	w.T.Helper()
	return Invocation{Env: w.Env, Dir: w.Dir}.Roster(w.T, args...)
}

// Git runs the git binary in dir with roster's environment (so the hooks
// it runs see the same home and signer) and nothing from the user's Git
// configuration; it returns the combined output.
func (w *HookWorld) Git(dir string, args ...string) (string, error) {
	w.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), RunAsRoster + "=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com"}
	for k, v := range w.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (w *HookWorld) MustGit(dir string, args ...string) string {
	w.T.Helper()
	out, err := w.Git(dir, args...)
	if err != nil {
		w.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Cache reads the repository once from the relays, as `roster repo` in
// the checkout would, so the warning hooks have something to read offline.
func (w *HookWorld) Cache() {
	w.T.Helper()
	if r := w.Roster(append([]string{"repo"}, RelayArgs(w.Relays)...)...); r.Code != cmdutil.ExitOK {
		w.T.Fatalf("roster repo: exit %d\n%s", r.Code, r.Err)
	}
}

func (w *HookWorld) Install(args ...string) Result {
	w.T.Helper()
	r := w.Roster(append([]string{"hooks", "install"}, args...)...)
	if r.Code != cmdutil.ExitOK {
		w.T.Fatalf("roster hooks install: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	return r
}

// Server is a bare repository reachable over file://, added as remote "server".
func (w *HookWorld) Server() string {
	w.T.Helper()
	bare := filepath.Join(w.T.TempDir(), "server.git")
	w.MustGit("", "init", "-q", "--bare", bare)
	w.MustGit(w.Dir, "remote", "add", "server", "file://"+bare)
	return bare
}

func (w *HookWorld) ServerHas(bare, ref string) string {
	w.T.Helper()
	out, err := w.Git(bare, "rev-parse", "--verify", "-q", ref)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// Removal: Alice leads and ended Carol's assignment (300..400); Carol's
// announcement still holds her self-role; Bob is confirmed.
func Removal(t *testing.T) []*nostr.Event {
	return []*nostr.Event{
		Alice.Announce(t, "proj", 1000, Role("M", Alice), Role("m", Bob, "200"), Role("m", Carol, "300", "400"), MaintainersTag(Alice, Bob)),
		Bob.Announce(t, "proj", 1001, Role("M", Alice, "200"), Role("m", Bob, "200"), MaintainersTag(Alice, Bob)),
		Carol.Announce(t, "proj", 1002, Role("M", Alice, "300"), Role("m", Carol, "300"), MaintainersTag(Alice, Carol)),
	}
}
