package render

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/termtext"
)

// forceHeading introduces the --force choice at the end of a state-only
// conflict's message (preflight's stateRefusal).
const forceHeading = "or keep your current branches and tags and replace the other state:"

// printForceLast prints, on a terminal, an error that offers --force as
// its last command and says in details.force_words what --force would
// remove or rewind (a state-only conflict of add or accept, a refused
// `repo state publish`): the message, the other commands, then those
// words right above the --force command. It reports false, printing
// nothing, for any other error, which printHumanErrorAs prints as it is.
func printForceLast(a *cmdutil.Factory, ee *cmdutil.ExitError, pt PeopleText) bool {
	words, _ := ee.Details["force_words"].(string)
	n := len(ee.Commands)
	if words == "" || n == 0 || !ee.Commands[n-1].Has("--force") {
		return false
	}
	msg, said := cmdutil.HumanMessage(ee), termtext.Line(words)
	heading := ""
	switch {
	case strings.HasSuffix(msg, "\n\n"+forceHeading+"\n"+said):
		msg, heading = strings.TrimSuffix(msg, "\n\n"+forceHeading+"\n"+said), forceHeading
	case strings.HasSuffix(msg, "\n"+said):
		msg = strings.TrimSuffix(msg, "\n"+said)
	default:
		return false
	}
	fmt.Fprintf(a.Io.Err, "roster: %s\n", pt.Prose(msg))
	for _, c := range Render(a, ee.Commands[:n-1]) {
		fmt.Fprintf(a.Io.Err, "  run: %s\n", termtext.Line(c))
	}
	if heading != "" {
		fmt.Fprintln(a.Io.Err, heading)
	}
	fmt.Fprintln(a.Io.Err, said)
	force := ee.Commands[n-1]
	if i := strings.Index(force.Comment, ": would "); i >= 0 {
		force.Comment = force.Comment[:i] // the words are right above it
	}
	fmt.Fprintf(a.Io.Err, "  run: %s\n", termtext.Line(Selectors(a).Render(force)))
	return true
}
