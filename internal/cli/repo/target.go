package repo

import (
	"fmt"
	"io"
	"strings"

	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/report"
)

// PrintTarget prints, before a write's preview (or its refusal), the
// repository it writes to and where that choice came from: `target
// repository: <name> <naddr> (from …)`, then a note for each coordinate the
// checkout's nostr.repo names that --repo overrode (report.Target).
func PrintTarget(w io.Writer, v *RepoView) { PrintTargetFit(w, 0, v) }

// PrintTargetFit is PrintTarget fitted to a terminal width columns wide
// (0: a pipe, unchanged): a target line too wide puts the naddr, which is
// never broken, on a row of its own under the name and the source.
func PrintTargetFit(w io.Writer, width int, v *RepoView) {
	if v == nil {
		return
	}
	t := report.TargetOf(v)
	for i, l := range t.Lines() {
		if i == 0 && width > 0 && termui.Width(l) > width {
			render.FitLine(w, width, 2, strings.TrimSuffix(l, " "+t.Naddr+" (from "+t.From+")")+" (from "+t.From+")")
			fmt.Fprintf(w, "  %s\n", t.Naddr)
			continue
		}
		render.FitLine(w, width, 2, l)
	}
}
