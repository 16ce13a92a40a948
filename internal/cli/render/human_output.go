package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/report"
)

// members lists people lead first, then confirmed, then invited, marking
// the lead, the selected maintainer and the viewer.
//
// partial (not every relay answered): an invitation may have been accepted
// on a relay that did not answer (a stream that broke before the
// acceptance arrived), so "invited" says it is only what the relays that
// answered show.
func PrintMembers(p *termui.Lines, label string, ms []report.Member, rep *report.Repo, pt PeopleText, partial bool) {
	if len(ms) == 0 {
		p.Row(label, "none")
		return
	}
	rank := func(m report.Member) int {
		switch {
		case rep != nil && rep.LeadMaintainer != nil && *rep.LeadMaintainer == m.Npub:
			return 0
		case m.Status == "confirmed":
			return 1
		}
		return 2
	}
	sorted := append([]report.Member{}, ms...)
	sort.SliceStable(sorted, func(i, j int) bool { return rank(sorted[i]) < rank(sorted[j]) })
	for i, m := range sorted {
		if i > 0 {
			label = ""
		}
		status := p.St.Apply(p.St.Good, m.Status)
		if m.Status != "confirmed" {
			word := m.Status
			if partial {
				word += " as far as the relays that answered show (an acceptance may be on one that did not)"
			}
			status = p.St.Apply(p.St.Warn, word)
		}
		var marks []string
		if rep != nil && rank(m) == 0 {
			marks = append(marks, "lead")
		}
		if rep != nil && m.Npub == rep.SelectedMaintainer {
			marks = append(marks, "selected")
		}
		// "(you)" is part of the person's name (peopleText).
		extra := ""
		if len(marks) > 0 {
			extra = " (" + strings.Join(marks, ", ") + ")"
		}
		p.Row(label, fmt.Sprintf("%s  %s%s", pt.Of(m.Npub), status, extra))
	}
}
