package main

import (
	"fmt"
	"github.com/roster-cli/roster/report"
	"sort"
	"strings"

	"github.com/roster-cli/roster/internal/termui"
)

// members lists people lead first, then confirmed, then invited, marking
// the lead, the selected maintainer and the viewer.
func printMembers(p *termui.Lines, label string, ms []report.Member, rep *report.Repo, pt peopleText) {
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
			status = p.St.Apply(p.St.Warn, m.Status)
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
