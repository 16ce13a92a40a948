package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/spf13/cobra"
)

// AddFullFlag gives a command group the --full that roster repo has: on a
// terminal npubs are shortened (peopleText) unless it is set.
func AddFullFlag(cmd *cobra.Command, a *cmdutil.Factory) {
	cmd.PersistentFlags().BoolVar(&a.Full, "full", false, "print npubs in full on a terminal too (pipes and --json always get them in full)")
}

// FitLine writes one human row, wrapped to width between words (termui.Wrap)
// so an npub, URL or id is never broken; continuation lines are indented
// cont columns, or less when a word would otherwise run past the edge.
// width 0 (a pipe or file) writes the row unchanged.
func FitLine(w io.Writer, width, cont int, line string) {
	if width <= 0 || termui.Width(line) <= width {
		fmt.Fprintln(w, line)
		return
	}
	body := strings.TrimLeft(line, " ")
	lead := line[:len(line)-len(body)]
	lines := termui.Wrap(body, width-len(lead))
	fmt.Fprintln(w, lead+lines[0])
	for _, l := range lines[1:] {
		indent := cont
		if indent+termui.Width(l) > width {
			indent = max(0, min(4, width-termui.Width(l)))
		}
		fmt.Fprintln(w, strings.Repeat(" ", indent)+l)
	}
}
