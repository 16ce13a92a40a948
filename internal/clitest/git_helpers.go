package clitest

import (
	"os/exec"
	"strings"
	"testing"
)

// GitRun runs the real `git` binary in dir (tests make their checkouts the
// way users do; gitstate is the only package that reads them), failing the
// test on error, and returns its trimmed output.
func GitRun(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(cmd.Environ(), "GIT_AUTHOR_DATE=2023-11-14T22:13:20Z", "GIT_COMMITTER_DATE=2023-11-14T22:13:20Z",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// GitInit makes an empty repository at dir.
func GitInit(t testing.TB, dir string) {
	t.Helper()
	GitRun(t, ".", "init", "-q", dir)
}
