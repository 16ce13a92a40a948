package state

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/statepub"
	"github.com/roster-cli/roster/termtext"
)

// interruptedPublish renders a publication stopped by the deadline or an
// interrupt, as a membership change's (change.interruptedMutation): sent
// where a relay may keep it, exit 6 with the event in `published`, each
// relay's answer in `relays` and `roster repo state` first; sent nowhere,
// exit 4 (deadline) or 130 (interrupt), nothing was published. The code is
// `deadline` or `interrupted`, `details.phase` the phase reached and
// `details.sent_to` the relays the event was written to.
func interruptedPublish(a *cmdutil.Factory, f *statepub.Failure, opts statepub.Options) *cmdutil.ExitError {
	kind, why := "interrupted", "interrupted: "
	code := cmdutil.ExitCode(f.Class) // 130, or 6 once a relay may keep the event
	if errors.Is(f.Err, context.DeadlineExceeded) {
		kind, why = "deadline", fmt.Sprintf("the --deadline of %s passed: ", a.Opts.Deadline)
		if code == cmdutil.ExitInterrupted {
			code = cmdutil.ExitIncomplete // a deadline that stopped a write before it sent anything
		}
	}
	details := map[string]any{"phase": f.Phase, "sent_to": cmdutil.OrEmptySlice(f.Sent)}
	if kind == "deadline" {
		details["deadline"] = a.Opts.Deadline.String()
	}
	if code == cmdutil.ExitUnverified {
		res := report.StatePublishOf(f.Outcome, opts)
		details["published"], details["relays"] = res.Published, res.Relays
	}
	if f.Outcome != nil && f.Outcome.View != nil {
		details["target"] = report.TargetOf(f.Outcome.View)
	}
	// The message carries an event id and relay URLs: each line escaped
	// alone.
	return &cmdutil.ExitError{Code: code, Kind: kind, Err: errors.New(why + strings.Join(f.Lines, "\n")), Details: details, Commands: f.Next,
		Terminal: why + strings.Join(termtext.Lines(f.Lines), "\n")}
}

// stoppedPublish is interruptedPublish after the target is named. One that
// sent nothing is printed here: the command tree would otherwise replace
// an error of exit 4 or 130 with its own `deadline` or `interrupted`
// (cmdutil.StoppedErr), which cannot say nothing was published.

func stoppedPublish(a *cmdutil.Factory, f *statepub.Failure, opts statepub.Options) error {
	ee := interruptedPublish(a, f, opts)
	if f.Outcome != nil && f.Outcome.View != nil && !a.Opts.JSON {
		repo.PrintTarget(a.Io.Err, f.Outcome.View)
	}
	if ee.Code != cmdutil.ExitUnverified {
		render.PrintError(a, ee)
		ee.Printed = true
	}
	return ee
}
