package clitest

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
	"time"
)

// RosterProcess starts this test binary as the roster binary (runAsRoster)
// with env and args, its stdout and stderr captured.
func RosterProcess(t *testing.T, env map[string]string, dir string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), RunAsRoster + "=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, &stdout, &stderr
}

// WaitFor polls cond until it holds or the deadline passes.
func WaitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(within)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("gave up after %v waiting for %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
