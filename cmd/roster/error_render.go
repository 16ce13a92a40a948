package main

import (
	"fmt"

	"github.com/roster-cli/roster/termtext"
)

// printError renders an error: JSON on stdout with --json (on stderr with
// --jq or --json-fields, errorOut), text on stderr otherwise.
func PrintError(a *Factory, ee *ExitError) {
	if a.Opts.JSON {
		// Unfiltered: the error object is what a script branches on.
		_ = EncodeJSON(a.ErrorOut(), struct {
			Error JsonErrorBody `json:"error"`
		}{JsonErrorBody{
			Code:     ee.Kind,
			Message:  ee.Err.Error(),
			Details:  OrEmptyMap(ee.Details),
			Commands: OrEmptySlice(Render(a, ee.Commands)),
		}})
		return
	}
	PrintHumanError(a, ee, Render(a, ee.Commands))
}

// printHumanError writes the message (humanMessage) and one `run:` line per
// rendered command to stderr. A command may carry a relay URL from an
// announcement, so it is escaped to one line too.
func PrintHumanError(a *Factory, ee *ExitError, cmds []string) {
	PrintHumanErrorAs(a, ee, cmds, PeopleText{})
}

// printHumanErrorAs is printHumanError with the people in the message's
// prose named by pt (its commands are printed as they are).
func PrintHumanErrorAs(a *Factory, ee *ExitError, cmds []string, pt PeopleText) {
	if printForceLast(a, ee, pt) { // repo_state_conflict_render.go
		return
	}
	fmt.Fprintf(a.Io.Err, "roster: %s\n", pt.Prose(HumanMessage(ee)))
	for _, c := range cmds {
		fmt.Fprintf(a.Io.Err, "  run: %s\n", termtext.Line(c))
	}
}
