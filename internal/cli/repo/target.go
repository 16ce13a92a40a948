package repo

import (
	"fmt"
	"io"

	"github.com/roster-cli/roster/report"
)

// PrintTarget prints, before a write's preview (or its refusal), the
// repository it writes to and where that choice came from: `target
// repository: <name> <naddr> (from …)`, then a note for each coordinate the
// checkout's nostr.repo names that --repo overrode (report.Target).
func PrintTarget(w io.Writer, v *RepoView) {
	if v == nil {
		return
	}
	for _, l := range report.TargetOf(v).Lines() {
		fmt.Fprintln(w, l)
	}
}
