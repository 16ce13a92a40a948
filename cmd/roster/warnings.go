package main

import (
	"fmt"
	"slices"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/report"
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
	pt := a.viewPeople(v)
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
		fmt.Fprintln(a.io.Err, termtext.Block(pt.ProseBlock(b, a.selectors())))
	}
}

// viewPeople names the people of v in human output.
func (a *app) viewPeople(v *repoView) peopleText {
	if v == nil {
		return a.people(nil, "")
	}
	return a.people(report.NamesOf(v.Profiles), viewerNpub(v))
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

// pendingCommands are the commands of roster repo's pending rows that
// say nothing but that row's acknowledgement: the lead's
// --acknowledge-maintainer-change <npub>. (A co-maintainer's pending row
// says follow-lead, which other advisories give for other reasons; those
// stay.)
func pendingCommands(v *repoView) []suggest.Command {
	var out []suggest.Command
	for _, p := range v.Resolution.PendingAcknowledgements {
		if slices.Contains(p.Command.Argv, "--acknowledge-maintainer-change") {
			out = append(out, p.Command)
		}
	}
	return out
}

// commandLines are the commands as report prints them (Command.String).
func commandLines(cmds []suggest.Command) map[string]bool {
	out := map[string]bool{}
	for _, c := range cmds {
		out[c.String()] = true
	}
	return out
}
