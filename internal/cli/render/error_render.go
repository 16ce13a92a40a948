package render

import (
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/termtext"
)

// PrintError renders an error: JSON on stdout with --json (on stderr with
// --jq or --json-fields, errorOut), text on stderr otherwise.
func PrintError(a *cmdutil.Factory, ee *cmdutil.ExitError) {
	if a.Opts.JSON {
		// Unfiltered: the error object is what a script branches on.
		_ = cmdutil.EncodeJSON(a.ErrorOut(), struct {
			Error cmdutil.JsonErrorBody `json:"error"`
		}{cmdutil.JsonErrorBody{
			Code:     ee.Kind,
			Message:  ee.Err.Error(),
			Details:  cmdutil.OrEmptyMap(ee.Details),
			Commands: cmdutil.OrEmptySlice(Render(a, ee.Commands)),
		}})
		return
	}
	PrintHumanError(a, ee, Render(a, ee.Commands))
}

// PrintHumanError writes the message (humanMessage) and one `run:` line per
// rendered command to stderr. A command may carry a relay URL from an
// announcement, so it is escaped to one line too.
func PrintHumanError(a *cmdutil.Factory, ee *cmdutil.ExitError, cmds []string) {
	PrintHumanErrorAs(a, ee, cmds, PeopleText{})
}

// PrintHumanErrorAs is printHumanError with the people in the message's
// prose named by pt (its commands are printed as they are).
func PrintHumanErrorAs(a *cmdutil.Factory, ee *cmdutil.ExitError, cmds []string, pt PeopleText) {
	if printForceLast(a, ee, pt) { // state_conflict_render.go
		return
	}
	fmt.Fprintf(a.Io.Err, "roster: %s\n", pt.Prose(cmdutil.HumanMessage(ee)))
	for _, c := range cmds {
		fmt.Fprintf(a.Io.Err, "  run: %s\n", termtext.Line(c))
	}
}
