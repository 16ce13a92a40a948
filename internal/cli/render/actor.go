package render

import (
	"fmt"
	"strings"

	"github.com/roster-cli/roster/report"
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
	return fmt.Sprintf("%s %s run: %s", who, verb, termtext.Line(*f.Command))
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
