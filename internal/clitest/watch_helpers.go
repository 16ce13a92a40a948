package clitest

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
	"github.com/roster-cli/roster/internal/cli/root"
)

// LockedBuffer is a writer a test reads while the command still writes.
type LockedBuffer struct {
	Mu sync.Mutex
	B  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.Mu.Lock()
	defer l.Mu.Unlock()
	return l.B.Write(p)
}

func (l *LockedBuffer) String() string {
	l.Mu.Lock()
	defer l.Mu.Unlock()
	return l.B.String()
}

// WatchRun is a `--watch` command running in-process on the real command
// tree until stop cancels its root context (an interrupt).
type WatchRun struct {
	T        *testing.T
	Mu       sync.Mutex
	Resolved []Resolution // every resolution so far, the first read included
	Out, Err *LockedBuffer
	Cancel   context.CancelFunc
	Code     chan int
}

func StartWatch(t *testing.T, env map[string]string, dir string, args ...string) *WatchRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &WatchRun{T: t, Out: &LockedBuffer{}, Err: &LockedBuffer{}, Cancel: cancel, Code: make(chan int, 1)}
	s := &cmdutil.IoStreams{In: strings.NewReader(""), Out: w.Out, Err: w.Err, Getenv: func(k string) string { return env[k] }, Now: time.Now, Dir: dir}
	sm := cmdutil.Seams{WatchResolved: func(printed bool, live int) {
		w.Mu.Lock()
		w.Resolved = append(w.Resolved, Resolution{printed, live})
		w.Mu.Unlock()
	}}
	go func() { w.Code <- root.RunContext(ctx, tree, args, s, sm) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-w.Code:
		case <-time.After(10 * time.Second):
			t.Error("the watch did not end after its interrupt")
		}
	})
	return w
}

// Resolution is one resolution of a watched read: whether it printed, and
// how many live events it was handed.
type Resolution struct {
	Printed bool
	Live    int
}

// Resolutions are the watch's resolutions so far.
func (w *WatchRun) Resolutions() []Resolution {
	w.Mu.Lock()
	defer w.Mu.Unlock()
	return append([]Resolution(nil), w.Resolved...)
}

// AfterLive waits for a resolution handed at least live events and
// returns it: the re-read an event delivered live caused, finished.
func (w *WatchRun) AfterLive(live int, within time.Duration) Resolution {
	w.T.Helper()
	var got Resolution
	WaitFor(w.T, "the re-read of the live event", within, func() bool {
		for _, r := range w.Resolutions() {
			if r.Live >= live {
				got = r
				return true
			}
		}
		return false
	})
	return got
}

// Settled waits until each relay holds n live subscriptions and the read
// their opening asks for has run (two resolutions at least); it returns the
// Resolution count.
func (w *WatchRun) Settled(n int, relays ...*devrelay.Relay) int {
	w.T.Helper()
	WaitFor(w.T, "the watch's subscriptions and its re-read", 10*time.Second, func() bool {
		for _, r := range relays {
			if r.OpenSubscriptions() < n {
				return false
			}
		}
		return len(w.Resolutions()) >= 2
	})
	return len(w.Resolutions())
}

// OutLines are the complete lines of output so far (a line still being
// written is left out).
func OutLines(s string) []string {
	s = strings.TrimSuffix(s[:strings.LastIndex(s, "\n")+1], "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Docs waits until stdout holds at least n complete JSON lines and returns
// them decoded.
func (w *WatchRun) Docs(n int, within time.Duration) []map[string]any {
	w.T.Helper()
	var lines []string
	WaitFor(w.T, "watch output", within, func() bool {
		lines = OutLines(w.Out.String())
		select {
		case code := <-w.Code:
			w.Code <- code
			w.T.Fatalf("the watch ended with exit %d\nstdout:\n%s\nstderr:\n%s", code, w.Out.String(), w.Err.String())
		default:
		}
		return len(lines) >= n
	})
	out := make([]map[string]any, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &out[i]); err != nil {
			w.T.Fatalf("line %d is not one JSON document: %v\n%s", i+1, err, l)
		}
	}
	return out
}

// Stop interrupts the watch and returns its exit code.
func (w *WatchRun) Stop() int {
	w.T.Helper()
	w.Cancel()
	select {
	case code := <-w.Code:
		w.Code <- code
		return code
	case <-time.After(10 * time.Second):
		w.T.Fatal("the watch did not end after its interrupt")
	}
	return -1
}

// WatchProc is the real roster process (this test binary as roster),
// its stdout and stderr read while it runs.
type WatchProc struct {
	Cmd      *exec.Cmd
	Out, Err *LockedBuffer
	Copied   sync.WaitGroup
}

func WatchProcess(t *testing.T, env map[string]string, dir string, args ...string) *WatchProc {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &WatchProc{Cmd: exec.Command(self, args...), Out: &LockedBuffer{}, Err: &LockedBuffer{}}
	p.Cmd.Dir = dir
	p.Cmd.Env = []string{"PATH=" + os.Getenv("PATH"), RunAsRoster + "=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	for k, v := range env {
		p.Cmd.Env = append(p.Cmd.Env, k+"="+v)
	}
	outPipe, err := p.Cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := p.Cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.Copied.Add(2)
	go func() { defer p.Copied.Done(); _, _ = io.Copy(p.Out, outPipe) }()
	go func() { defer p.Copied.Done(); _, _ = io.Copy(p.Err, errPipe) }()
	t.Cleanup(func() {
		if p.Cmd.ProcessState == nil {
			_ = p.Cmd.Process.Kill()
			p.Wait()
		}
	})
	return p
}

// Wait waits for the process to exit and returns its exit code.
func (p *WatchProc) Wait() int {
	p.Copied.Wait()
	_ = p.Cmd.Wait()
	return p.Cmd.ProcessState.ExitCode()
}
