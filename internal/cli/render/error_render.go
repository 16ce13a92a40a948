package render

import (
	"errors"
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// PrintError renders an error: JSON on stdout with --json (on stderr with
// --jq or --json-fields, errorOut), text on stderr otherwise.
func PrintError(a *cmdutil.Factory, ee *cmdutil.ExitError) {
	if a.Opts.JSON {
		// Unfiltered: the error object is what a script branches on.
		_ = cmdutil.EncodeJSON(a.ErrorOut(), report.ErrorDocument{Error: report.ErrorBody{
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

// PrintHumanErrorAs is printHumanError with the people the message names
// named by pt (its commands are printed as they are).
func PrintHumanErrorAs(a *cmdutil.Factory, ee *cmdutil.ExitError, cmds []string, pt PeopleText) {
	if printForceLast(a, ee, pt) { // state_conflict_render.go
		return
	}
	fmt.Fprintf(a.Io.Err, "roster: %s\n", pt.Message(ee))
	for _, c := range cmds {
		fmt.Fprintf(a.Io.Err, "  run: %s\n", termtext.Line(c))
	}
}

// Message is the error's message as people read it: when the error is a
// rule's message built from parts (a preflight refusal, a membership
// failure: MessageText) that says exactly the error's text, its people are
// named by pt; otherwise the text as it is (HumanMessage).
func (pt PeopleText) Message(ee *cmdutil.ExitError) string {
	var parts interface{ MessageText() suggest.Block }
	if ee.Terminal == "" && errors.As(ee.Err, &parts) {
		if t := parts.MessageText(); t.String() == ee.Err.Error() {
			return termtext.Block(pt.Text(t))
		}
	}
	return cmdutil.HumanMessage(ee)
}
