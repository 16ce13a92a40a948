package main

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
)

// finishMutation prints the result (JSON or human) and the advisories.
func (a *app) finishMutation(v *repoView, plan *preflight.Plan, out *mutationResult) error {
	out.Command = a.withSelectors(out.Command)
	out.Guidance = a.guidanceWithSelectors(out.Guidance)
	if a.opts.JSON {
		return writeJSON(a, out)
	}
	w := a.io.Out
	verb := "published"
	if out.DryRun {
		verb = "preview only (--dry-run): nothing was published"
	}
	fmt.Fprintf(w, "%s\n", out.Command)
	fmt.Fprintf(w, "repository  %s\n", displayCoord(v.Coordinate()))
	renderPlan(a, plan)
	if len(out.Published) > 0 {
		fmt.Fprintf(w, "%s %s to %d relay(s), read back from each\n", verb, strings.Join(out.Published, " "), len(out.Relays))
	} else if out.DryRun {
		fmt.Fprintln(w, verb)
	}
	if out.SwitchedTo != nil && v.Checkout != nil { // outside a checkout the guidance says what to select
		fmt.Fprintf(w, "this checkout now selects %s\n", *out.SwitchedTo)
		if len(out.SwitchedRemotes) > 0 {
			fmt.Fprintf(w, "remote(s) now pointing at the lead: %s\n", strings.Join(out.SwitchedRemotes, ", "))
		}
	}
	if len(out.Guidance) > 0 {
		fmt.Fprintln(w, "next:")
		for _, g := range guidanceLines(out.Guidance) {
			fmt.Fprintf(w, "  %s\n", g)
		}
	}
	after := out.resolvedAfter
	if after == nil && out.DryRun {
		after = v
	}
	if after != nil {
		a.printAdvisoriesBesides(after, out.Guidance)
	}
	return nil
}

// printAdvisoriesBesides prints the advisory warnings of v except those
// whose command the "next:" section already gives: after a handover the
// lead-pointer advisory would repeat `roster repo follow-lead` right below
// the guidance that says it.
func (a *app) printAdvisoriesBesides(v *repoView, guidance []string) {
	if a.opts.JSON {
		return
	}
	var given []string
	for _, g := range guidance {
		if _, cmd, ok := preflight.GuidanceCommand(g); ok {
			given = append(given, cmd)
		}
	}
	first := true
	for _, b := range advisories(v.Resolution, v.Viewer) {
		if advisoryRepeats(b, given) {
			continue
		}
		if !first {
			fmt.Fprintln(a.io.Err)
		}
		first = false
		fmt.Fprintln(a.io.Err, b)
	}
}

// advisoryRepeats reports whether the advisory block ends in "... with:
// <command>" for a command the guidance gives (perhaps with more flags).
func advisoryRepeats(block string, given []string) bool {
	lines := strings.Split(strings.TrimSpace(block), "\n")
	_, cmd, ok := preflight.GuidanceCommand(lines[len(lines)-1])
	if !ok {
		return false
	}
	for _, g := range given {
		if g == cmd || strings.HasPrefix(g, cmd+" ") {
			return true
		}
	}
	return false
}

// renderPlan prints the preview: each role change, the consequences and
// what the state seam did and did not check.
func renderPlan(a *app, plan *preflight.Plan) {
	w := a.io.Out
	if len(plan.Changes) > 0 {
		fmt.Fprintln(w, "changes to your announcement:")
		for _, c := range plan.Changes {
			fmt.Fprintf(w, "  %-11s %s %s  %s\n", c.Action, c.Letter, graph.Npub(c.Subject), tagText(c.After))
		}
	}
	s := plan.Sim
	row := func(label string, people []string) {
		if len(people) > 0 {
			fmt.Fprintf(w, "  %-22s %s\n", label, joinNpubs(people))
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
	fmt.Fprintf(w, "  %-22s %s (%s) -> %s (%s)\n", "lead", dashIfEmpty(graph.Npub(s.LeadBefore.Lead)), s.LeadBefore.Source,
		dashIfEmpty(graph.Npub(s.LeadAfter.Lead)), s.LeadAfter.Source)
	if plan.SwitchTo != nil {
		fmt.Fprintf(w, "  %-22s %s -> %s\n", "selected coordinate", displayCoord(s.SelectedBefore), displayCoord(s.SelectedAfter))
	}
	fmt.Fprintf(w, "state check: %s\n", strings.Join(plan.State.Checked, "; "))
	fmt.Fprintf(w, "not checked yet: %s\n", strings.Join(plan.State.NotChecked, "; "))
}

func tagText(t nostr.Tag) string {
	parts := make([]string, len(t))
	for i, v := range t {
		parts[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// guidanceLines renders the advice after a mutation. preflight already
// names each command once (its Plan.Guidance, which --json prints as is,
// joins the advice that shares a command with preflight.GuidanceSeparator);
// here such a line becomes the command on its own line followed by each
// part it covers. The parts concern different people (you, and the other
// co-maintainers who run it in their own checkouts), so the heading does
// not claim that one run covers them all. Identical lines (the command adds some of its own) are
// printed once.
func guidanceLines(guidance []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range guidance {
		if seen[g] {
			continue
		}
		seen[g] = true
		what, command, ok := preflight.GuidanceCommand(g)
		if !ok || !strings.Contains(what, preflight.GuidanceSeparator) {
			out = append(out, g)
			continue
		}
		out = append(out, command+"   # the same command, for each of:")
		for _, part := range strings.Split(what, preflight.GuidanceSeparator) {
			out = append(out, "  "+part)
		}
	}
	return out
}
