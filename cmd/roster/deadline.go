// The command's wall-time cap (--deadline) and what roster says when the
// command's context ends early: the deadline passed, or an interrupt
// (SIGINT, SIGTERM) cancelled it.

package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/roster-cli/roster/suggest"
	"github.com/spf13/cobra"
)

// exitInterrupted is an interrupt (SIGINT or SIGTERM) before anything was
// sent: 128 + SIGINT, as shells report it.
const exitInterrupted = 130

// runState is what one invocation records while it runs: the deadline it
// set, the phase a write reached and the progress line a write shares.
type runState struct {
	deadline context.Context // nil without --deadline
	cancel   context.CancelFunc
	phase    string
	progress progressLine
}

// progressLine is the part of termui.Progress discovery reuses.
type progressLine interface {
	Update(done, total int)
	NextRound()
	Phase(name string)
	Done()
}

// startDeadline caps cmd's context at --deadline from now (before any
// relay is asked). It runs in root's PersistentPreRunE.
func (a *app) startDeadline(cmd *cobra.Command) error {
	if a.opts.Deadline < 0 {
		return &exitError{Code: exitUsage, Kind: "usage",
			Err:      fmt.Errorf("--deadline must be a positive duration, not %s", a.opts.Deadline),
			Commands: []suggest.Command{{Argv: []string{"--deadline", "1m"}, Comment: "or leave it out: no cap beyond --timeout per relay"}}}
	}
	if a.opts.Deadline == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), a.opts.Deadline)
	a.run.deadline, a.run.cancel = ctx, cancel
	cmd.SetContext(ctx)
	return nil
}

// stopDeadline releases the deadline's timer.
func (a *app) stopDeadline() {
	if a.run.cancel != nil {
		a.run.cancel()
	}
}

// deadlinePassed reports whether --deadline ended the command's context.
func (a *app) deadlinePassed() bool {
	return a.run.deadline != nil && errors.Is(a.run.deadline.Err(), context.DeadlineExceeded)
}

// whileDoing is " while <phase>", or "" when no phase was recorded.
func whileDoing(phase string) string {
	if phase == "" {
		return ""
	}
	return " while " + phase
}

// stoppedErr replaces the error of a command whose context ended early
// (root ctx cancelled by a signal, or the deadline) with `deadline` (exit
// 4) or `interrupted` (exit 130), naming the phase it reached. A write
// that reports what it sent renders itself (interruptedMutation); an
// error already printed, or one that says something was published (exit
// 6), is left alone. It claims nothing about what was published: commands
// that publish report that themselves.
func (a *app) stoppedErr(root context.Context, err error) error {
	var ee *exitError
	if err == nil || errors.As(err, &ee) && (ee.Printed || ee.Code == exitUnverified) {
		return err
	}
	switch {
	case a.deadlinePassed():
		return &exitError{Code: exitIncomplete, Kind: "deadline",
			Err:     fmt.Errorf("the --deadline of %s passed%s, before the command finished", a.opts.Deadline, whileDoing(a.run.phase)),
			Details: map[string]any{"phase": a.run.phase, "deadline": a.opts.Deadline.String()},
			Commands: []suggest.Command{{Argv: []string{"--deadline", (2 * a.opts.Deadline).Round(time.Second).String()},
				Comment: "give the command more time"}}}
	case root.Err() != nil:
		return &exitError{Code: exitInterrupted, Kind: "interrupted",
			Err:     fmt.Errorf("interrupted%s, before the command finished", whileDoing(a.run.phase)),
			Details: map[string]any{"phase": a.run.phase}}
	}
	return err
}
