package main

import (
	"fmt"

	"github.com/roster-cli/roster/termtext"
)

// printError renders an error: JSON on stdout with --json (on stderr with
// --jq or --json-fields, errorOut), text on stderr otherwise.
func printError(a *app, ee *exitError) {
	if a.opts.JSON {
		// Unfiltered: the error object is what a script branches on.
		_ = encodeJSON(a.errorOut(), struct {
			Error jsonErrorBody `json:"error"`
		}{jsonErrorBody{
			Code:     ee.Kind,
			Message:  ee.Err.Error(),
			Details:  orEmptyMap(ee.Details),
			Commands: orEmptySlice(a.render(ee.Commands)),
		}})
		return
	}
	a.printHumanError(ee, a.render(ee.Commands))
}

// printHumanError writes the message (humanMessage) and one `run:` line per
// rendered command to stderr. A command may carry a relay URL from an
// announcement, so it is escaped to one line too.
func (a *app) printHumanError(ee *exitError, cmds []string) {
	a.printHumanErrorAs(ee, cmds, peopleText{})
}

// printHumanErrorAs is printHumanError with the people in the message's
// prose named by pt (its commands are printed as they are).
func (a *app) printHumanErrorAs(ee *exitError, cmds []string, pt peopleText) {
	if a.printForceLast(ee, pt) { // repo_state_conflict_render.go
		return
	}
	fmt.Fprintf(a.io.Err, "roster: %s\n", pt.Prose(humanMessage(ee)))
	for _, c := range cmds {
		fmt.Fprintf(a.io.Err, "  run: %s\n", termtext.Line(c))
	}
}
