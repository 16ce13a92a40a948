package repo_test

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// wantStoppedWhileDiscovering checks a membership change stopped while it
// discovered: the exit code, the documented JSON error (code, phase
// discovering, sent_to empty, nothing published; no repository was read,
// so the error object stands alone, as for a read that found nothing), no
// goroutine trace, and no event stored by the relays.
func wantStoppedWhileDiscovering(t *testing.T, how string, code int, stdout, stderr string, kind string, w *clitest.MutWorld, before int) {
	t.Helper()
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
		t.Fatalf("%s: a goroutine trace on stderr:\n%s", how, stderr)
	}
	r := clitest.Result{Code: code, Out: stdout, Err: stderr}
	m, e := clitest.MutationJSON(t, r)
	wantCode := cmdutil.ExitInterrupted
	if kind == "deadline" {
		wantCode = cmdutil.ExitIncomplete
	}
	if code != wantCode || e == nil || e["code"] != kind {
		t.Fatalf("%s: exit %d error %v, want %d %s\n%s\n%s", how, code, e, wantCode, kind, stdout, stderr)
	}
	d, _ := e["details"].(map[string]any)
	if d["phase"] != "discovering" || d["sent_to"] == nil || len(clitest.ToStrings(d["sent_to"])) != 0 {
		t.Fatalf("%s: details %v, want phase discovering and sent_to []", how, d)
	}
	if msg, _ := e["message"].(string); !strings.Contains(msg, "nothing was published") {
		t.Fatalf("%s: message %q does not say nothing was published", how, msg)
	}
	if p, _ := m["published"].([]any); len(p) != 0 {
		t.Fatalf("%s: published %v, want nothing", how, m["published"])
	}
	if cmds := clitest.ToStrings(e["commands"]); len(cmds) == 0 || !strings.Contains(cmds[0], "repo edit --add-maintainer") {
		t.Fatalf("%s: commands %v, want the change to run again first", how, cmds)
	}
	if w.StoredCount() != before {
		t.Fatalf("%s: a change stopped while discovering stored an event", how)
	}
}

// Rule (docs/usage.md: --deadline and an interrupt stop a write in any
// phase and say what was sent): a membership change whose relay holds its
// discovery when --deadline passes exits 4 `deadline` with phase
// `discovering` and the roster.mutation/v2 JSON, not a nil-pointer panic.
func TestADeadlineWhileAChangeDiscoversIsExit4Deadline(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	before := w.StoredCount()
	w.Relays[0].SetSlow(8 * time.Second)
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--timeout", "10s", "--deadline", "300ms", "--json")
	wantStoppedWhileDiscovering(t, "--deadline 300ms", r.Code, r.Out, r.Err, "deadline", w, before)

	// The human form says it on stderr.
	r = w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--timeout", "10s", "--deadline", "300ms")
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
		w := clitest.NewMutWorld(t, 1)
		w.Seed(clitest.Alice.Announce(t, w.Id, 100))
		before := w.StoredCount()
		w.Relays[0].SetSlow(20 * time.Second)
		reqs := w.Relays[0].ReqCount()
		args := append([]string{"--repo", clitest.Alice.Naddr(w.Id), "--timeout", "30s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)
		args = append(args, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
		cmd, stdout, stderr := clitest.RosterProcess(t, clitest.WithKey(w.Home, clitest.Alice), w.Dir, args...)
		clitest.WaitFor(t, "the change to ask the relay", 10*time.Second, func() bool { return w.Relays[0].ReqCount() > reqs })
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
