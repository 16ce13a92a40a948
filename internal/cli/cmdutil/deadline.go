// The command's wall-time cap (--deadline) and what roster says when the
// command's context ends early: the deadline passed, or an interrupt
// (SIGINT, SIGTERM) cancelled it.

package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
)

// ExitInterrupted is an interrupt (SIGINT or SIGTERM) before anything was
// sent: 128 + SIGINT, as shells report it.
const ExitInterrupted = 130

// runState is what one invocation records while it runs: the deadline it
// set and the phase a write reached.
type runState struct {
	deadline context.Context // nil without --deadline
	cancel   context.CancelFunc
	Phase    string `json:"-"`
}

// ProgressLine is the part of termui.Progress discovery reuses.
type ProgressLine interface {
	Update(done, total int)
	NextRound()
	Phase(name string)
	Done()
}

// StartDeadline caps cmd's context at --deadline from now (before any
// relay is asked). It runs in root's PersistentPreRunE.
func (a *Factory) StartDeadline(cmd *cobra.Command) error {
	if a.Opts.Deadline < 0 {
		return &ExitError{Code: ExitUsage, Kind: "usage",
			Err:      fmt.Errorf("--deadline must be a positive duration, not %s", a.Opts.Deadline),
			Commands: []suggest.Command{{Argv: []string{"--deadline", "1m"}, Comment: "or leave it out: no cap beyond --timeout per relay"}}}
	}
	if a.Opts.Deadline == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), a.Opts.Deadline)
	a.Run.deadline, a.Run.cancel = ctx, cancel
	cmd.SetContext(ctx)
	return nil
}

// StopDeadline releases the deadline's timer.
func (a *Factory) StopDeadline() {
	if a.Run.cancel != nil {
		a.Run.cancel()
	}
}

// deadlinePassed reports whether --deadline ended the command's context.
func (a *Factory) deadlinePassed() bool {
	return a.Run.deadline != nil && errors.Is(a.Run.deadline.Err(), context.DeadlineExceeded)
}

// whileDoing is " while <phase>", or "" when no phase was recorded.
func whileDoing(phase string) string {
	if phase == "" {
		return ""
	}
	return " while " + phase
}

// StoppedErr replaces the error of a command whose context ended early
// (root ctx cancelled by a signal, or the deadline) with `deadline` (exit
// 4) or `interrupted` (exit 130), naming the phase it reached. A write
// that reports what it sent renders itself (interruptedMutation); an
// error already printed, or one that says something was published (exit
// 6), is left alone. It claims nothing about what was published: commands
// that publish report that themselves.
func (a *Factory) StoppedErr(root context.Context, err error) error {
	var ee *ExitError
	if err == nil || errors.As(err, &ee) && (ee.Printed || ee.Code == ExitUnverified) {
		return err
	}
	switch {
	case a.deadlinePassed():
		return &ExitError{Code: ExitIncomplete, Kind: "deadline",
			Err:     fmt.Errorf("the --deadline of %s passed%s, before the command finished", a.Opts.Deadline, whileDoing(a.Run.Phase)),
			Details: map[string]any{"phase": a.Run.Phase, "deadline": a.Opts.Deadline.String()},
			Commands: []suggest.Command{{Argv: []string{"--deadline", (2 * a.Opts.Deadline).Round(time.Second).String()},
				Comment: "give the command more time"}}}
	case root.Err() != nil:
		return &ExitError{Code: ExitInterrupted, Kind: "interrupted",
			Err:     fmt.Errorf("interrupted%s, before the command finished", whileDoing(a.Run.Phase)),
			Details: map[string]any{"phase": a.Run.Phase}}
	}
	return err
}
