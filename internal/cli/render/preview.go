// The consequence preview of a destructive write (project delete, project
// update --home-channel, workspace revoke, workspace section remove, group
// leave): what it takes away from whom, in people's words, printed before
// the write acts, and alone with --dry-run.

package render

import (
	"fmt"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
)

// PrintConsequences writes the consequence sentences, each wrapped at
// $COLUMNS, under a heading saying whether the write follows.
func PrintConsequences(a *cmdutil.Factory, command string, lines []string, dryRun bool) {
	w, width := a.Io.Out, TerminalWidth(a)
	if dryRun {
		fmt.Fprintf(w, "dry run of %s: nothing was signed or sent; it would do this:\n", command)
	} else {
		fmt.Fprintf(w, "%s does this:\n", command)
	}
	for _, l := range lines {
		FitLine(w, width, 4, "  "+l)
	}
}

// EmitPreview prints a --dry-run preview: the JSON document, or the
// sentences.
func EmitPreview(a *cmdutil.Factory, p report.ConsequencePreview) error {
	p.Schema, p.DryRun = report.ConsequencePreviewSchema, true
	if p.Consequences == nil {
		p.Consequences = []string{}
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, p)
	}
	PrintConsequences(a, p.Command, p.Consequences, true)
	return nil
}
