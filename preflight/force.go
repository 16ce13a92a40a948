package preflight

import (
	"fmt"

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
	lines := []string{
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
// commands: publish the aligned state and rerun, or rerun with --force
// (from a checkout: --force keeps the checkout's refs).
func forceStateConflict(r *Refusal, it Intent, inCheckout bool) *Refusal {
	it.Force = false
	cmds := []suggest.Command{suggest.Roster("repo", "state", "publish").Because("publish your aligned branches and tags"), it.Suggest().Because("once the state is aligned")}
	if inCheckout {
		forced := it
		forced.Force = true
		cmds = append(cmds, forced.Suggest().Because("keep this checkout's branches and tags and replace the other state"))
	}
	return r.run(cmds...)
}

func withoutForce(in Intent) Intent {
	in.Force = false
	return in
}
