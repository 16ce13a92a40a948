package preflight

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/suggest"
)

// --force has exactly one meaning in the spec (maintainers.md "Required
// safety posture", "Confirmation can activate pre-existing state"): on an add
// or accept whose sole remaining conflict is kind 30618 state, keep the
// command runner's complete ref map (compareJoin plans it, the membership
// pipeline publishes it before the announcement). Everywhere else it is
// refused, naming what to do instead.

// forceNotAvailable refuses --force on anything but add and accept.
func forceNotAvailable(it Intent) *Refusal {
	lines := []any{
		fmt.Sprintf("--force is not available for %s", it.Action),
		"--force only ever keeps the command runner's repository state on an add or accept whose sole conflict is kind 30618 state;",
		"it never overrides membership, lead, identity, history or authorization checks",
	}
	if it.Action == ActRemove {
		lines = append(lines, "there is no --force shortcut for combining several membership decisions: remove each person with its own command")
	}
	lines = append(lines, "instead rerun without --force:", "  "+withoutForce(it).Command())
	return refuse("force-not-available", lines...).with("action", string(it.Action)).run(withoutForce(it).Suggest())
}

// forceStateConflict completes a state-only conflict's refusal with its
// commands, in the order the spec gives the choices: after the alignment
// commands stateRefusal made, publish the aligned state (an add; an accept
// whose checkout already matches) and rerun; last, from a checkout, rerun
// with --force, its comment the loss in words (Details "force_words").
func forceStateConflict(r *Refusal, it Intent, inCheckout bool) *Refusal {
	it.Force = false
	var cmds []suggest.Command
	align, _ := r.Details["align"].([]RefAction)
	if it.Action != ActAccept || len(align) == 0 {
		cmds = append(cmds, suggest.Roster("repo", "state", "publish").Because("publish your aligned branches and tags"))
	}
	cmds = append(cmds, it.Suggest().Because("once the state is aligned"))
	if inCheckout {
		forced := it
		forced.Force = true
		why := "keep this checkout's branches and tags and replace the other state"
		if words, _ := r.Details["force_words"].(string); words != "" {
			why += ": " + strings.TrimPrefix(words, "--force ")
		}
		cmds = append(cmds, forced.Suggest().Because(why))
	}
	return r.run(cmds...)
}

func withoutForce(in Intent) Intent {
	in.Force = false
	return in
}
