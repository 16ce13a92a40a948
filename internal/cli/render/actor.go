package render

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// ActorLine is "carol (npub…) should run: roster repo follow-lead", or
// "carol (npub…) should repair it by hand" when there is no command.
func ActorLine(f report.Finding, pt PeopleText) string {
	who := ActorText(f, pt)
	verb := "should"
	if who == "any maintainer" {
		verb = "can"
	}
	if f.Command == nil {
		return fmt.Sprintf("%s %s repair it by hand", who, verb)
	}
	cmd := *f.Command
	if f.Pasted != "" {
		cmd = f.Pasted
	}
	return fmt.Sprintf("%s %s run: %s", who, verb, termtext.Line(cmd))
}

// PasteFindings sets each finding's Pasted: its command with the reader's
// selectors (sel.Apply), so that "should run:" runs as printed outside a
// checkout too; a command for another person carries the repository and
// relays, never the reader's --home.
func PasteFindings(fs []report.Finding, sel suggest.Selectors) {
	for i := range fs {
		if fs[i].Suggested != nil {
			fs[i].Pasted = sel.Apply(*fs[i].Suggested).Line()
		}
	}
}

// ActorText is who should act on a finding, for a person reading it:
// "you", a named person, or "any maintainer".
func ActorText(f report.Finding, pt PeopleText) string {
	switch {
	case f.Actor == "" || f.Actor == report.ActorAnyMaintainer:
		return "any maintainer"
	case pt.Viewer != "" && f.Actor == pt.Viewer:
		return "you"
	}
	return strings.TrimSuffix(pt.Of(f.Actor), " (you)")
}
