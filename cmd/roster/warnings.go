package main

import (
	"fmt"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// printAdvisories writes graph's advisory warnings for v to stderr (human
// output only: with --json the same facts are structured data), except
// those whose closing command the "next:" section already gives: after a
// handover the lead-pointer advisory would repeat `roster repo follow-lead`
// right below the guidance that says it.
func (a *app) printAdvisories(v *repoView, given ...suggest.Command) {
	if a.opts.JSON {
		return
	}
	first := true
	for _, b := range graph.Advisories(v.Resolution, v.Viewer) {
		if repeats(b, given) {
			continue
		}
		if !first {
			fmt.Fprintln(a.io.Err)
		}
		first = false
		// An advisory spans lines of graph's own; the coordinates and
		// commands in it may carry an announcement's identifier.
		fmt.Fprintln(a.io.Err, termtext.Block(b.Render(a.selectors())))
	}
}

// repeats reports whether the block ends with a command the guidance gives
// (perhaps with more flags).
func repeats(b suggest.Block, given []suggest.Command) bool {
	c := b.Closing()
	if c == nil {
		return false
	}
	for _, g := range given {
		if g.Extends(*c) {
			return true
		}
	}
	return false
}
