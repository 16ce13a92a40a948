package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// rosterProcess starts this test binary as the roster binary (runAsRoster)
// with env and args, its stdout and stderr captured.
func rosterProcess(t *testing.T, env map[string]string, dir string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), runAsRoster + "=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
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

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(within)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("gave up after %v waiting for %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wantStoppedWhileDiscovering checks a membership change stopped while it
// discovered: the exit code, the documented JSON error (code, phase
// discovering, sent_to empty, nothing published; no repository was read,
// so the error object stands alone, as for a read that found nothing), no
// goroutine trace, and no event stored by the relays.
func wantStoppedWhileDiscovering(t *testing.T, how string, code int, stdout, stderr string, kind string, w *mutWorld, before int) {
	t.Helper()
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
		t.Fatalf("%s: a goroutine trace on stderr:\n%s", how, stderr)
	}
	r := result{Code: code, Out: stdout, Err: stderr}
	m, e := mutationJSON(t, r)
	wantCode := cmdutil.ExitInterrupted
	if kind == "deadline" {
		wantCode = cmdutil.ExitIncomplete
	}
	if code != wantCode || e == nil || e["code"] != kind {
		t.Fatalf("%s: exit %d error %v, want %d %s\n%s\n%s", how, code, e, wantCode, kind, stdout, stderr)
	}
	d, _ := e["details"].(map[string]any)
	if d["phase"] != "discovering" || d["sent_to"] == nil || len(toStrings(d["sent_to"])) != 0 {
		t.Fatalf("%s: details %v, want phase discovering and sent_to []", how, d)
	}
	if msg, _ := e["message"].(string); !strings.Contains(msg, "nothing was published") {
		t.Fatalf("%s: message %q does not say nothing was published", how, msg)
	}
	if p, _ := m["published"].([]any); len(p) != 0 {
		t.Fatalf("%s: published %v, want nothing", how, m["published"])
	}
	if cmds := toStrings(e["commands"]); len(cmds) == 0 || !strings.Contains(cmds[0], "repo edit --add-maintainer") {
		t.Fatalf("%s: commands %v, want the change to run again first", how, cmds)
	}
	if w.storedCount() != before {
		t.Fatalf("%s: a change stopped while discovering stored an event", how)
	}
}

// Rule (docs/usage.md: --deadline and an interrupt stop a write in any
// phase and say what was sent): a membership change whose relay holds its
// discovery when --deadline passes exits 4 `deadline` with phase
// `discovering` and the roster.mutation/v2 JSON, not a nil-pointer panic.
func TestADeadlineWhileAChangeDiscoversIsExit4Deadline(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	before := w.storedCount()
	w.relays[0].SetSlow(8 * time.Second)
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--timeout", "10s", "--deadline", "300ms", "--json")
	wantStoppedWhileDiscovering(t, "--deadline 300ms", r.Code, r.Out, r.Err, "deadline", w, before)

	// The human form says it on stderr.
	r = w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--timeout", "10s", "--deadline", "300ms")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, "--deadline of 300ms passed") || !strings.Contains(r.Err, "discovering") ||
		!strings.Contains(r.Err, "nothing was published") || strings.Contains(r.Err, "goroutine ") {
		t.Fatalf("human: exit %d stderr:\n%s", r.Code, r.Err)
	}
}

// Rule (an interrupt, SIGINT or SIGTERM, stops a write with exit 130 before
// anything was sent): the real roster process, signalled while its relay
// holds the discovery, exits 130 `interrupted` with phase `discovering`
// and the documented JSON on stdout; nothing is stored.
func TestASignalWhileAChangeDiscoversIsExit130Interrupted(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		w := newMutWorld(t, 1)
		w.seed(alice.announce(t, w.id, 100))
		before := w.storedCount()
		w.relays[0].SetSlow(20 * time.Second)
		reqs := w.relays[0].ReqCount()
		args := append([]string{"--repo", alice.naddr(w.id), "--timeout", "30s", "--home", w.home["ROSTER_HOME"]}, relayArgs(w.relays)...)
		args = append(args, "repo", "edit", "--add-maintainer", bob.npub(), "--json")
		cmd, stdout, stderr := rosterProcess(t, withKey(w.home, alice), w.dir, args...)
		waitFor(t, "the change to ask the relay", 10*time.Second, func() bool { return w.relays[0].ReqCount() > reqs })
		start := time.Now()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("%v: the process took %v to stop", sig, took)
		}
		wantStoppedWhileDiscovering(t, sig.String(), cmd.ProcessState.ExitCode(), stdout.String(), stderr.String(), "interrupted", w, before)
	}
}
