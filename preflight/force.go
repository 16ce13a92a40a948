package preflight

import "fmt"

// --force has exactly one meaning in the spec (maintainers.md "Required
// safety posture", "Confirmation can activate pre-existing state"): on an add
// or accept whose sole remaining conflict is kind 30618 state, keep the
// command runner's complete ref map. Publishing that state replacement is the
// next step of the implementation, so today --force is refused everywhere;
// these messages say so and name what to do instead.

// forceStateOnlyDeferred is the sentence every --force refusal ends with.
const forceStateOnlyDeferred = "roster does not publish that state replacement yet (kind 30618 state replacement is the next step), so --force is refused for every command"

// forceNotAvailable refuses --force on anything but add and accept.
func forceNotAvailable(it Intent) *Refusal {
	lines := []string{
		fmt.Sprintf("--force is not available for %s", it.Action),
		"--force only ever keeps the command runner's repository state on an add or accept whose sole conflict is kind 30618 state;",
		"it never overrides membership, lead, identity, history or authorization checks",
		forceStateOnlyDeferred,
	}
	if it.Action == ActRemove {
		lines = append(lines, "there is no --force shortcut for combining several membership decisions: remove each person with its own command")
	}
	lines = append(lines, "instead rerun without --force:", "  "+withoutForce(it).Command())
	return refuse("force-not-available", lines...).with("action", string(it.Action)).run(withoutForce(it).Suggest())
}

// forceStateConflict completes a state-only conflict's refusal when --force
// was given: the one case --force is meant for, which is not implemented yet.
func forceStateConflict(r *Refusal, it Intent) *Refusal {
	if !it.Force {
		return r.run(it.Suggest())
	}
	r.Message += "\n" + joinLines([]string{
		"--force was given: this state-only conflict is the one case --force is meant for, but " + forceStateOnlyDeferred,
		"instead align the repository you control with the branch and tag changes above, publish that state, and rerun without --force:",
		"  " + withoutForce(it).Command(),
		"or keep the repositories separate: publish the other repository under a new identifier first",
	})
	r.with("force_deferred", true)
	return r.run(withoutForce(it).Suggest())
}

func withoutForce(in Intent) Intent {
	in.Force = false
	return in
}
