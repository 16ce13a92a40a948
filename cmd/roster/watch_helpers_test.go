package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	"github.com/roster-cli/roster/internal/cli/root"
)

// lockedBuffer is a writer a test reads while the command still writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// watchRun is a `--watch` command running in-process on the real command
// tree until stop cancels its root context (an interrupt).
type watchRun struct {
	t        *testing.T
	mu       sync.Mutex
	resolved []resolution // every resolution so far, the first read included
	out, err *lockedBuffer
	cancel   context.CancelFunc
	code     chan int
}

func startWatch(t *testing.T, env map[string]string, dir string, args ...string) *watchRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchRun{t: t, out: &lockedBuffer{}, err: &lockedBuffer{}, cancel: cancel, code: make(chan int, 1)}
	s := &cmdutil.IoStreams{In: strings.NewReader(""), Out: w.out, Err: w.err, Getenv: func(k string) string { return env[k] }, Now: time.Now, Dir: dir}
	sm := cmdutil.Seams{WatchResolved: func(printed bool, live int) {
		w.mu.Lock()
		w.resolved = append(w.resolved, resolution{printed, live})
		w.mu.Unlock()
	}}
	go func() { w.code <- root.RunContext(ctx, commands.All, args, s, sm) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-w.code:
		case <-time.After(10 * time.Second):
			t.Error("the watch did not end after its interrupt")
		}
	})
	return w
}

// resolution is one resolution of a watched read: whether it printed, and
// how many live events it was handed.
type resolution struct {
	printed bool
	live    int
}

// resolutions are the watch's resolutions so far.
func (w *watchRun) resolutions() []resolution {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]resolution(nil), w.resolved...)
}

// afterLive waits for a resolution handed at least live events and
// returns it: the re-read an event delivered live caused, finished.
func (w *watchRun) afterLive(live int, within time.Duration) resolution {
	w.t.Helper()
	var got resolution
	waitFor(w.t, "the re-read of the live event", within, func() bool {
		for _, r := range w.resolutions() {
			if r.live >= live {
				got = r
				return true
			}
		}
		return false
	})
	return got
}

// settled waits until each relay holds n live subscriptions and the read
// their opening asks for has run (two resolutions at least); it returns the
// resolution count.
func (w *watchRun) settled(n int, relays ...*devrelay.Relay) int {
	w.t.Helper()
	waitFor(w.t, "the watch's subscriptions and its re-read", 10*time.Second, func() bool {
		for _, r := range relays {
			if r.OpenSubscriptions() < n {
				return false
			}
		}
		return len(w.resolutions()) >= 2
	})
	return len(w.resolutions())
}

// outLines are the complete lines of output so far (a line still being
// written is left out).
func outLines(s string) []string {
	s = strings.TrimSuffix(s[:strings.LastIndex(s, "\n")+1], "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// docs waits until stdout holds at least n complete JSON lines and returns
// them decoded.
func (w *watchRun) docs(n int, within time.Duration) []map[string]any {
	w.t.Helper()
	var lines []string
	waitFor(w.t, "watch output", within, func() bool {
		lines = outLines(w.out.String())
		select {
		case code := <-w.code:
			w.code <- code
			w.t.Fatalf("the watch ended with exit %d\nstdout:\n%s\nstderr:\n%s", code, w.out.String(), w.err.String())
		default:
		}
		return len(lines) >= n
	})
	out := make([]map[string]any, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &out[i]); err != nil {
			w.t.Fatalf("line %d is not one JSON document: %v\n%s", i+1, err, l)
		}
	}
	return out
}

// stop interrupts the watch and returns its exit code.
func (w *watchRun) stop() int {
	w.t.Helper()
	w.cancel()
	select {
	case code := <-w.code:
		w.code <- code
		return code
	case <-time.After(10 * time.Second):
		w.t.Fatal("the watch did not end after its interrupt")
	}
	return -1
}

// watchProc is the real roster process (this test binary as roster),
// its stdout and stderr read while it runs.
type watchProc struct {
	cmd      *exec.Cmd
	out, err *lockedBuffer
	copied   sync.WaitGroup
}

func watchProcess(t *testing.T, env map[string]string, dir string, args ...string) *watchProc {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &watchProc{cmd: exec.Command(self, args...), out: &lockedBuffer{}, err: &lockedBuffer{}}
	p.cmd.Dir = dir
	p.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), runAsRoster + "=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	outPipe, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.copied.Add(2)
	go func() { defer p.copied.Done(); _, _ = io.Copy(p.out, outPipe) }()
	go func() { defer p.copied.Done(); _, _ = io.Copy(p.err, errPipe) }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			p.wait()
		}
	})
	return p
}

// wait waits for the process to exit and returns its exit code.
func (p *watchProc) wait() int {
	p.copied.Wait()
	_ = p.cmd.Wait()
	return p.cmd.ProcessState.ExitCode()
}
