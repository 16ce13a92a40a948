package repo

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
)

// LeadSourceText explains lead_source in words, answering "is the lead
// explicit, legacy-inferred, or unresolved?" (graph.LeadSource.Words, the
// one vocabulary of every command).
func LeadSourceText(src string) string { return graph.LeadSource(src).Words() }

// RenderRepoHuman prints the human view: the spec's four questions first
// (selected coordinate; lead and its source; confirmed, invited, moderators;
// pending acknowledgements or a coordinate to follow), then metadata, state,
// lifecycle, health and relays.
//
// Every string that came from a relay or an event (the identifier, the
// metadata, ref names, relay URLs and reasons, finding messages) is printed
// through termtext.Line, so it stays on its row; npubs, hex ids and roster's
// own words are printed as they are.
func RenderRepoHuman(w io.Writer, rep *report.Repo, st termui.Styles) {
	renderRepoHumanAs(w, rep, st, render.NewPeopleText(rep.Names, rep.Viewer, false), 0)
}

// renderRepoHumanAs is renderRepoHuman naming people with pt and wrapping
// rows at width columns (0: no wrapping).
func renderRepoHumanAs(w io.Writer, rep *report.Repo, st termui.Styles, pt render.PeopleText, width int) {
	p := &termui.Lines{W: w, St: st, Width: width}
	id := termtext.Line(rep.Coordinate.Identifier)

	// 1. Which maintainer coordinate did this checkout select?
	p.Row("repository", id)
	p.Row("selected", pt.Of(rep.SelectedMaintainer)+"/"+id)
	p.Note("the entry point, and the only key that can replace its announcement")

	// 2. Who is the lead, and is that explicit, legacy-inferred or unresolved?
	lead := "none"
	if rep.LeadMaintainer != nil {
		lead = pt.Of(*rep.LeadMaintainer)
	}
	source := LeadSourceText(rep.LeadSource)
	if rep.LeadMaintainer == nil && rep.Lifecycle.Status != "" && rep.Lifecycle.Status != "active" {
		// A deleted or archived coordinate grants no authority; say why
		// rather than describe an empty graph.
		source = "none: this coordinate is " + rep.Lifecycle.Status
	}
	p.Row("lead", lead+"  "+st.Apply(st.Dim, "("+source+")"))
	if len(rep.LeadPath) > 1 {
		p.Note("path " + pt.List(rep.LeadPath, " -> "))
	}

	// 3. Who is confirmed, invited, or a moderator?
	render.PrintMembers(p, "maintainers", rep.Maintainers, rep, pt, !rep.Complete && !rep.Offline)
	render.PrintMembers(p, "moderators", rep.Moderators, nil, pt, !rep.Complete && !rep.Offline)

	// 4. Pending history acknowledgements or a safer lead coordinate to follow?
	if len(rep.PendingHistoryAcknowledgements) == 0 {
		p.Row("pending", "no history acknowledgements")
	}
	for i, ack := range rep.PendingHistoryAcknowledgements {
		label := ""
		if i == 0 {
			label = "pending"
		}
		role, verb := "maintainership", "started"
		if ack.Moderator {
			role = "their moderator role"
		}
		if ack.Transition == "end" {
			verb = "ended"
		}
		what := verb + " " + role
		p.Row(label, fmt.Sprintf("%s %s at %s", pt.Of(ack.Npub), what, graph.HumanTime(ack.Time)))
		who := pt.Of(ack.Author) + " records"
		if ack.Author != "" && ack.Author == rep.Viewer {
			who = "record"
		}
		p.Note(who + " it with: " + termtext.Line(ack.Command))
	}
	if rep.FollowLeadCommand != nil {
		target := ""
		if rep.RecommendedCoordinate != nil {
			target = termtext.Line(*rep.RecommendedCoordinate)
		}
		p.Row("follow", st.Apply(st.Warn, "the lead coordinate is "+target))
		p.Note("switch with: " + termtext.Line(*rep.FollowLeadCommand))
	} else if rep.RecommendedCoordinate != nil {
		p.Row("follow", "this checkout already selects the lead coordinate")
	}

	// Then metadata and state.
	p.Blank()
	m := rep.Meta
	p.RowIf("name", termtext.Line(m.Name))
	p.RowIf("description", termtext.Line(m.Description))
	p.List("clone", termtext.Lines(m.Clone))
	p.List("web", termtext.Lines(m.Web))
	p.List("hashtags", termtext.Lines(m.Hashtags))
	p.List("announced relays", termtext.Lines(m.Relays))
	p.RowIf("earliest commit", termtext.Line(m.EUC))
	p.Row("lifecycle", lifecycleText(rep.Lifecycle, st, pt))
	if rep.State == nil {
		p.Row("state", "no kind 30618 state from a confirmed maintainer")
	} else {
		s := rep.State
		p.Row("state", fmt.Sprintf("HEAD %s, %d refs, by %s", termtext.Line(termui.Dash(s.Head)), len(s.Refs), pt.Of(s.Author)))
		names := make([]string, 0, len(s.Refs))
		for n := range s.Refs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p.Note(termtext.Line(fmt.Sprintf("%s  %s", s.Refs[n], n)))
		}
	}

	p.Blank()
	renderHealthSummary(p, rep, pt)
	renderRelays(p, rep)
}

// renderHealthSummary counts the findings and lists each one briefly; `roster
// repo health` is the CI-facing view of the same list.
func renderHealthSummary(p *termui.Lines, rep *report.Repo, pt render.PeopleText) {
	errs, warns := countFindings(rep.Health)
	if errs+warns == 0 {
		p.Row("health", p.St.Apply(p.St.Good, "no findings"))
		return
	}
	text := fmt.Sprintf("%d error(s), %d warning(s)", errs, warns)
	style := p.St.Warn
	if errs > 0 {
		style = p.St.Bad
	}
	underPending := func(f report.Finding) bool {
		return f.Code == graph.CodePendingAcknowledgement && f.Command != nil && rep.Shown[*f.Command]
	}
	listed := 0
	for _, f := range rep.Health {
		if underPending(f) {
			listed++
		}
	}
	if listed > 0 {
		text += fmt.Sprintf(" (%d under pending)", listed)
	}
	p.Row("health", p.St.Apply(style, text))
	for _, f := range rep.Health {
		if underPending(f) {
			continue
		}
		p.Note(pt.Prose(termtext.Line(f.Severity + " " + f.Code + ": " + f.Message)))
		if f.Command != nil {
			p.Note("  " + render.ActorLine(f, pt))
		}
	}
}

// renderRelays names every relay read and, when evidence is incomplete, says
// which relays failed and why, so a partial answer is never mistaken for a full one.
func renderRelays(p *termui.Lines, rep *report.Repo) {
	if rep.Offline {
		p.Row("relays", p.St.Apply(p.St.Warn, "not contacted (--offline): answered from the local cache"))
		p.Note("cached events may be stale; run without --offline to refresh")
		return
	}
	for i, r := range rep.Relays {
		label := ""
		if i == 0 {
			label = "relays"
		}
		text := fmt.Sprintf("%s  %s, %d event(s)", termtext.Line(r.URL), r.Status, r.Events)
		if r.Dropped > 0 {
			// A relay serving forged or altered events is worth knowing
			// about even though roster ignored them.
			text += fmt.Sprintf(", %d ignored (bad id, signature or filter)", r.Dropped)
		}
		if r.Reason != "" {
			text += ": " + termtext.Line(r.Reason)
		}
		if len(r.Forged) > 0 {
			// A valid copy from another relay still counts; the relay that
			// forged one is named so it can be dropped from the config.
			text += fmt.Sprintf("; served forged copies (bad signature) of %s", strings.Join(r.Forged, ", "))
		}
		if r.Status != "ok" || r.Dropped > 0 {
			text = p.St.Apply(p.St.Bad, text)
		}
		p.Row(label, text)
	}
	if !rep.Complete {
		var failed []string
		for _, r := range rep.Relays {
			if r.Status != "ok" {
				failed = append(failed, termtext.Line(r.URL))
			}
		}
		p.Row("complete", p.St.Apply(p.St.Warn, "no: partial answer, "+strings.Join(failed, ", ")+" did not answer"))
	} else {
		p.Row("complete", "yes: every relay answered")
	}
}

func countFindings(fs []report.Finding) (errs, warns int) {
	for _, f := range fs {
		if f.Severity == "error" {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

func lifecycleText(l report.Lifecycle, st termui.Styles, pt render.PeopleText) string {
	if l.Status == "active" || l.Status == "" {
		return "active"
	}
	text := l.Status
	if l.Actor != nil {
		text += " by " + pt.Of(*l.Actor)
	}
	if l.Time != nil {
		text += " at " + graph.HumanTime(*l.Time)
	}
	return st.Apply(st.Warn, text)
}
