package change

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/membership"
	"github.com/roster-cli/roster/report"
)

// interruptedMutation renders a membership change stopped by the deadline
// or an interrupt. Sent to some relay: exit 6 with the event id in
// `published`, each relay's answer in `relays` and the read that shows
// whether it is in effect. Sent to none: exit 4 (deadline) or 130
// (interrupt), nothing was published.
func interruptedMutation(a *cmdutil.Factory, v *repo.RepoView, out *report.Mutation, f *membership.Failure) error {
	kind, why := "interrupted", "interrupted: "
	code := cmdutil.ExitCode(f.Class) // 130, or 6 once the event was sent
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
	ee := &cmdutil.ExitError{Code: code, Kind: kind, Err: errors.New(why + f.Msg), Details: details, Commands: f.Next}
	if len(f.Sent) == 0 {
		return mutationError(a, v, ee.OneLine())
	}
	details["published"], details["relays"] = out.Published, out.Relays
	ee.Terminal = why + strings.ReplaceAll(f.Msg, "\n", " ")
	return mutationErrorPublished(a, v, out, ee.OneLine())
}
