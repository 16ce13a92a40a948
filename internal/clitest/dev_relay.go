package clitest

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"

	cliroot "github.com/roster-cli/roster/internal/cli/root"
)

// SyncBuffer is a bytes.Buffer safe to read while the command writes.
type SyncBuffer struct {
	Mu sync.Mutex
	B  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.B.Write(p)
}

func (s *SyncBuffer) String() string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.B.String()
}

// DevRelayRun runs `roster <args>` through the real command tree until the
// returned stop is called (the in-process stand-in for Ctrl-C).
type DevRelayRun struct {
	Out, Err *SyncBuffer
	Done     chan struct{} // closed when the command has returned
	Result   error         // what it returned; read after done
	Stop     context.CancelFunc
}

func StartDevRelayCmd(t *testing.T, args ...string) *DevRelayRun {
	t.Helper()
	run := &DevRelayRun{Out: &SyncBuffer{}, Err: &SyncBuffer{}, Done: make(chan struct{})}
	s := &cmdutil.IoStreams{In: strings.NewReader(""), Out: run.Out, Err: run.Err,
		Getenv: func(string) string { return "" }, Now: time.Now}
	a := &cmdutil.Factory{Io: s}
	root := cliroot.NewRootCmd(a, tree)
	root.SetArgs(args)
	ctx, cancel := context.WithCancel(context.Background())
	run.Stop = cancel
	go func() {
		run.Result = root.ExecuteContext(ctx)
		close(run.Done)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-run.Done:
		case <-time.After(10 * time.Second):
			t.Error("roster dev relay did not stop within 10s of its context ending")
		}
	})
	return run
}

// WaitOutput waits until stdout holds a full line containing want.
func (r *DevRelayRun) WaitOutput(t *testing.T, want string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		out := r.Out.String()
		if i := strings.Index(out, want); i >= 0 && strings.Contains(out[i:], "\n") {
			return out
		}
		select {
		case <-r.Done:
			t.Fatalf("roster dev relay exited early (%v); stdout %q stderr %q", r.Result, out, r.Err.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q on stdout within 10s: %q", want, out)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
