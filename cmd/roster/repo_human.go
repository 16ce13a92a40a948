package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/roster-cli/roster/termtext"
)

// leadSourceText explains lead_source in words, answering "is the lead
// explicit, legacy-inferred, or unresolved?".
func leadSourceText(src string) string {
	switch src {
	case "implicit_sole":
		return "implicit: the sole maintainer"
	case "explicit":
		return "explicit"
	case "legacy_inferred":
		return "legacy-inferred from maintainers listings"
	case "explicit_none":
		return "none: deliberately leadless"
	case "none":
		return "unresolved: legacy listings have no unique winner"
	case "pending":
		return "unresolved: the lead pointer path is pending"
	case "conflict":
		return "unresolved: the lead pointer path conflicts"
	}
	return src
}

// renderRepoHuman prints the human view: the spec's four questions first
// (selected coordinate; lead and its source; confirmed, invited, moderators;
// pending acknowledgements or a coordinate to follow), then metadata, state,
// lifecycle, health and relays.
//
// Every string that came from a relay or an event (the identifier, the
// metadata, ref names, relay URLs and reasons, finding messages) is printed
// through termtext.Line, so it stays on its row; npubs, hex ids and roster's
// own words are printed as they are.
func renderRepoHuman(w io.Writer, rep *repoReport, st outputStyles) {
	p := &linePrinter{w: w, st: st}
	id := termtext.Line(rep.Coordinate.Identifier)

	// 1. Which maintainer coordinate did this checkout select?
	p.row("repository", id)
	p.row("selected", rep.SelectedMaintainer+"/"+id)
	p.note("the entry point, and the only key that can replace its announcement")

	// 2. Who is the lead, and is that explicit, legacy-inferred or unresolved?
	lead := "none"
	if rep.LeadMaintainer != nil {
		lead = *rep.LeadMaintainer
	}
	source := leadSourceText(rep.LeadSource)
	if rep.LeadMaintainer == nil && rep.Lifecycle.Status != "" && rep.Lifecycle.Status != "active" {
		// A deleted or archived coordinate grants no authority; say why
		// rather than describe an empty graph.
		source = "none: this coordinate is " + rep.Lifecycle.Status
	}
	p.row("lead", lead+"  "+st.apply(st.dim, "("+source+")"))
	if len(rep.LeadPath) > 1 {
		p.note("path " + termtext.Line(strings.Join(rep.LeadPath, " -> ")))
	}

	// 3. Who is confirmed, invited, or a moderator?
	p.members("maintainers", rep.Maintainers, rep)
	p.members("moderators", rep.Moderators, nil)

	// 4. Pending history acknowledgements or a safer lead coordinate to follow?
	if len(rep.PendingHistoryAcknowledgements) == 0 {
		p.row("pending", "no history acknowledgements")
	}
	for i, ack := range rep.PendingHistoryAcknowledgements {
		label := ""
		if i == 0 {
			label = "pending"
		}
		verb := "started"
		if ack.Transition == "end" {
			verb = "ended"
		}
		p.row(label, fmt.Sprintf("%s %s maintainership at %s", ack.Npub, verb, humanTime(ack.Time)))
		who := ack.author + " records"
		if ack.author != "" && ack.author == rep.viewer {
			who = "record"
		}
		p.note(who + " it with: " + termtext.Line(ack.Command))
	}
	if rep.FollowLeadCommand != nil {
		target := ""
		if rep.RecommendedCoordinate != nil {
			target = termtext.Line(*rep.RecommendedCoordinate)
		}
		p.row("follow", st.apply(st.warn, "the lead coordinate is "+target))
		p.note("switch with: " + termtext.Line(*rep.FollowLeadCommand))
	} else if rep.RecommendedCoordinate != nil {
		p.row("follow", "this checkout already selects the lead coordinate")
	}

	// Then metadata and state.
	p.blank()
	m := rep.meta
	p.rowIf("name", termtext.Line(m.Name))
	p.rowIf("description", termtext.Line(m.Description))
	p.list("clone", termtext.Lines(m.Clone))
	p.list("web", termtext.Lines(m.Web))
	p.list("announced relays", termtext.Lines(m.Relays))
	p.rowIf("earliest commit", termtext.Line(m.EUC))
	p.row("lifecycle", lifecycleText(rep.Lifecycle, st))
	if rep.State == nil {
		p.row("state", "no kind 30618 state from a confirmed maintainer")
	} else {
		s := rep.State
		p.row("state", fmt.Sprintf("HEAD %s, %d refs, by %s", termtext.Line(dashIfEmpty(s.Head)), len(s.Refs), s.Author))
		names := make([]string, 0, len(s.Refs))
		for n := range s.Refs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p.note(termtext.Line(fmt.Sprintf("%s  %s", s.Refs[n], n)))
		}
	}

	p.blank()
	renderHealthSummary(p, rep)
	renderRelays(p, rep)
}

// renderHealthSummary counts the findings and lists each one briefly; `roster
// repo health` is the CI-facing view of the same list.
func renderHealthSummary(p *linePrinter, rep *repoReport) {
	errs, warns := countFindings(rep.Health)
	if errs+warns == 0 {
		p.row("health", p.st.apply(p.st.good, "no findings"))
		return
	}
	text := fmt.Sprintf("%d error(s), %d warning(s)", errs, warns)
	style := p.st.warn
	if errs > 0 {
		style = p.st.bad
	}
	p.row("health", p.st.apply(style, text))
	for _, f := range rep.Health {
		p.note(termtext.Line(f.Severity + " " + f.Code + ": " + f.Message))
		if f.Command != nil {
			p.note("  repair with: " + termtext.Line(*f.Command))
		}
	}
}

// renderRelays names every relay read and, when evidence is incomplete, says
// which relays failed and why, so a partial answer is never mistaken for a full one.
func renderRelays(p *linePrinter, rep *repoReport) {
	if rep.offline {
		p.row("relays", p.st.apply(p.st.warn, "not contacted (--offline): answered from the local cache"))
		p.note("cached events may be stale; run without --offline to refresh")
		return
	}
	for i, r := range rep.Relays {
		label := ""
		if i == 0 {
			label = "relays"
		}
		text := fmt.Sprintf("%s  %s, %d event(s)", termtext.Line(r.URL), r.Status, r.Events)
		if r.dropped > 0 {
			// A relay serving forged or altered events is worth knowing
			// about even though roster ignored them.
			text += fmt.Sprintf(", %d ignored (bad id, signature or filter)", r.dropped)
		}
		if r.reason != "" {
			text += ": " + termtext.Line(r.reason)
		}
		if r.Status != "ok" || r.dropped > 0 {
			text = p.st.apply(p.st.bad, text)
		}
		p.row(label, text)
	}
	if !rep.Complete {
		var failed []string
		for _, r := range rep.Relays {
			if r.Status != "ok" {
				failed = append(failed, termtext.Line(r.URL))
			}
		}
		p.row("complete", p.st.apply(p.st.warn, "no: partial answer, "+strings.Join(failed, ", ")+" did not answer"))
	} else {
		p.row("complete", "yes: every relay answered")
	}
}

func countFindings(fs []findingJSON) (errs, warns int) {
	for _, f := range fs {
		if f.Severity == "error" {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

func lifecycleText(l lifecycleJSON, st outputStyles) string {
	if l.Status == "active" || l.Status == "" {
		return "active"
	}
	text := l.Status
	if l.Actor != nil {
		text += " by " + *l.Actor
	}
	if l.Time != nil {
		text += " at " + humanTime(*l.Time)
	}
	return st.apply(st.warn, text)
}
