package main

import (
	"fmt"
	"github.com/roster-cli/roster/report"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// finishMutation prints the result (JSON or human) and the advisories.
func (a *app) finishMutation(v *repoView, plan *preflight.Plan, out *report.Mutation) error {
	sel := a.selectors()
	if plan != nil {
		out.Command = sel.Apply(plan.Intent.Suggest()).Line()
	}
	out.Guidance = append(out.Guidance, suggest.Texts(out.Advice, sel)...)
	if a.opts.JSON {
		return writeJSON(a, out)
	}
	w := a.io.Out
	verb := "published"
	if out.DryRun {
		verb = "preview only (--dry-run): nothing was published"
	}
	// Coordinates, commands, ref names and guidance may carry an
	// announcement's identifier or relay URLs: each is one line.
	fmt.Fprintf(w, "%s\n", termtext.Line(out.Command))
	fmt.Fprintf(w, "repository  %s\n", termtext.Line(displayCoord(v.Coordinate())))
	renderPlan(a, plan)
	if len(out.Published) > 0 {
		fmt.Fprintf(w, "%s %s to %d relay(s), read back from each\n", verb, strings.Join(out.Published, " "), len(out.Relays))
	} else if out.DryRun {
		fmt.Fprintln(w, verb)
	}
	if out.SwitchedTo != nil && v.Checkout != nil { // outside a checkout the guidance says what to select
		fmt.Fprintf(w, "this checkout now selects %s\n", termtext.Line(*out.SwitchedTo))
		if len(out.SwitchedRemotes) > 0 {
			fmt.Fprintf(w, "remote(s) now pointing at the lead: %s\n", termtext.Line(strings.Join(out.SwitchedRemotes, ", ")))
		}
	}
	if len(out.Advice) > 0 {
		fmt.Fprintln(w, "next:")
		for _, g := range guidanceLines(out.Advice, sel) {
			fmt.Fprintf(w, "  %s\n", termtext.Line(g))
		}
	}
	after := out.ResolvedAfter
	if after == nil && out.DryRun {
		after = v
	}
	if after != nil {
		var given []suggest.Command
		for _, g := range out.Advice {
			if g.Command != nil {
				given = append(given, *g.Command)
			}
		}
		a.printAdvisories(after, given...)
	}
	return nil
}

// renderPlan prints the preview: each role change, the consequences and
// what the state seam did and did not check.
func renderPlan(a *app, plan *preflight.Plan) {
	w := a.io.Out
	if len(plan.Fields) > 0 {
		fmt.Fprintln(w, "metadata of your announcement:")
		for _, c := range plan.Fields {
			fmt.Fprintf(w, "  %-11s %s -> %s\n", c.Field, fieldText(c.Before), fieldText(c.After))
		}
	}
	if len(plan.Changes) > 0 {
		fmt.Fprintln(w, "changes to your announcement:")
		for _, c := range plan.Changes {
			fmt.Fprintf(w, "  %-11s %s %s  %s\n", c.Action, c.Letter, graph.Npub(c.Subject), tagText(c.After))
		}
	}
	s := plan.Sim
	row := func(label string, people []string) {
		if len(people) > 0 {
			fmt.Fprintf(w, "  %-22s %s\n", label, strings.Join(graph.Npubs(people), " "))
		}
	}
	fmt.Fprintln(w, "consequences:")
	row("newly invited", s.NewlyInvited)
	row("newly confirmed", s.NewlyConfirmed)
	if c := s.Confirmation; c != nil && c.Kind == preflight.ConfirmStanding {
		fmt.Fprintf(w, "  %-22s acceptance from %d of your assignment closed at %d (never recorded as a removal)\n", "standing acceptance", c.AcceptedAt, c.ClosedAt)
	}
	row("no longer maintainer", s.Lost)
	row("invitation withdrawn", s.InvitationsWithdrawn)
	row("moderator gained", s.ModeratorsGained)
	row("moderator lost", s.ModeratorsLost)
	fmt.Fprintf(w, "  %-22s %s (%s) -> %s (%s)\n", "lead", termui.Dash(graph.Npub(s.LeadBefore.Lead)), s.LeadBefore.Source,
		termui.Dash(graph.Npub(s.LeadAfter.Lead)), s.LeadAfter.Source)
	if plan.SwitchTo != nil {
		fmt.Fprintf(w, "  %-22s %s -> %s\n", "selected coordinate", termtext.Line(displayCoord(s.SelectedBefore)), termtext.Line(displayCoord(s.SelectedAfter)))
	}
	if pub := plan.State.Publish; pub != nil {
		what := "--force: a kind 30618 state with this checkout's branches and tags replaces the other state"
		if pub.Reason == preflight.PublishHandoff {
			what = "the removal handoff: the same repository state, signed by you, so the removal does not change it"
		}
		fmt.Fprintf(w, "  %-22s %s (%d ref(s), default branch %s), published before the announcement\n", "state published first", what, len(pub.Refs), termui.Dash(pub.Head))
		for _, l := range preflight.RenderRefActions(plan.State.ForceWould) {
			if pub.Reason == preflight.PublishForce {
				fmt.Fprintf(w, "  %-22s %s\n", "", termtext.Line(l))
			}
		}
	}
	fmt.Fprintf(w, "state check: %s\n", termtext.Line(strings.Join(plan.State.Checked, "; ")))
	fmt.Fprintf(w, "not checked yet: %s\n", termtext.Line(strings.Join(plan.State.NotChecked, "; ")))
}

func tagText(t nostr.Tag) string {
	parts := make([]string, len(t))
	for i, v := range t {
		parts[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// guidanceLines renders the advice after a mutation. preflight already
// names each command once (Plan.Guidance groups the advice that shares a
// command); a group of several becomes the command on its own line followed
// by each part it covers. The parts concern different people (you, and the
// other co-maintainers who run it in their own checkouts), so the heading
// does not claim that one run covers them all.
func guidanceLines(gs []suggest.Guidance, sel suggest.Selectors) []string {
	var out []string
	for _, g := range gs {
		if g.Command == nil || len(g.Whats) < 2 {
			out = append(out, g.Text(sel))
			continue
		}
		out = append(out, sel.Render(g.Command.Because("the same command, for each of:")))
		for _, part := range g.Whats {
			out = append(out, "  "+part)
		}
	}
	return out
}

// fieldText is a metadata field's tags as one line (relay- and
// user-supplied text, escaped), "-" when there are none.
func fieldText(tags nostr.Tags) string {
	if len(tags) == 0 {
		return "-"
	}
	parts := make([]string, len(tags))
	for i, t := range tags {
		parts[i] = tagText(t)
	}
	return strings.Join(parts, " ")
}
