package clitest

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/root"
)

// Result is what one in-process invocation of roster produced.
type Result struct {
	Out, Err string
	Code     int
}

// Invocation describes one run of the real command tree in-process.
type Invocation struct {
	Env   map[string]string // the whole environment; nothing leaks in from the test process
	Stdin string
	Dir   string    // working directory for Git discovery
	Now   time.Time // zero = time.Now
	// Seams are the invocation's test hooks (a concurrent change, a
	// keyring that is not there).
	Seams cmdutil.Seams
	// OutTTY and ErrTTY make stdout and stderr look like terminals; InTTY
	// Stdin (Stdin is then what the user types).
	OutTTY, ErrTTY, InTTY bool
	// Ctx is the root context (main's signal-aware one); nil is
	// context.Background. Cancelling it is an interrupt.
	Ctx context.Context
}

// Roster runs the real command tree with args and returns its streams and exit code.
func (inv Invocation) Roster(t *testing.T, args ...string) Result {
	t.Helper()
	var out, errb bytes.Buffer
	env := inv.Env
	s := &cmdutil.IoStreams{
		In:     strings.NewReader(inv.Stdin),
		Out:    &out,
		Err:    &errb,
		Getenv: func(k string) string { return env[k] },
		Now:    time.Now,
		Dir:    inv.Dir,
		OutTTY: inv.OutTTY,
		ErrTTY: inv.ErrTTY,
		InTTY:  inv.InTTY,
	}
	if !inv.Now.IsZero() {
		now := inv.Now
		s.Now = func() time.Time { return now }
	}
	ctx := inv.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	code := root.RunContext(ctx, tree, args, s, inv.Seams)
	return Result{Out: out.String(), Err: errb.String(), Code: code}
}
