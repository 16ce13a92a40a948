package main

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/termtext"
)

// forceHeading introduces the --force choice at the end of a state-only
// conflict's message (preflight's stateRefusal).
const forceHeading = "or keep your current branches and tags and replace the other state:"

// printMutationRefusal prints a membership refusal on a terminal. A
// state-only conflict that offers --force (its last command) prints its
// alignment commands first and then, right above the --force command,
// what --force would remove or rewind in plain words; every other error is
// printHumanErrorAs's message and `run:` lines.
func (a *app) printMutationRefusal(ee *exitError, cmds []string, pt peopleText) {
	words, _ := ee.Details["force_words"].(string)
	n := len(ee.Commands)
	msg := humanMessage(ee)
	tail := "\n\n" + forceHeading + "\n" + termtext.Line(words)
	if ee.Kind != "state-conflict" || words == "" || n == 0 || !ee.Commands[n-1].Has("--force") || !strings.HasSuffix(msg, tail) {
		a.printHumanErrorAs(ee, cmds, pt)
		return
	}
	fmt.Fprintf(a.io.Err, "roster: %s\n", pt.Prose(strings.TrimSuffix(msg, tail)))
	for _, c := range a.render(ee.Commands[:n-1]) {
		fmt.Fprintf(a.io.Err, "  run: %s\n", termtext.Line(c))
	}
	fmt.Fprintf(a.io.Err, "%s\n%s\n", forceHeading, termtext.Line(words))
	force := ee.Commands[n-1].Because("keep this checkout's branches and tags and replace the other state")
	fmt.Fprintf(a.io.Err, "  run: %s\n", termtext.Line(a.selectors().Render(force)))
}
