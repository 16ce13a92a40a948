package change

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/termtext"
)

// finishMutation prints the result (JSON or human) and the advisories.
// lookups are the NIP-05 names the arguments were given as.
func finishMutation(a *cmdutil.Factory, v *repo.RepoView, plan *preflight.Plan, out *report.Mutation, lookups cmdutil.Lookups) error {
	sel := render.Selectors(a)
	if plan != nil {
		out.Command = sel.Apply(plan.Intent.Suggest()).Line()
	}
	out.Guidance = append(out.Guidance, suggest.Texts(out.Advice, sel)...)
	for _, l := range lookups {
		out.NIP05Lookups = append(out.NIP05Lookups, report.NIP05Lookup{Name: l.Name, Npub: l.Npub})
	}
	if plan != nil && plan.Intent.Action == preflight.ActAdd {
		out.Share = report.ShareOf(v.Coordinate(), report.HintRelay(out.Relays, v.Relays)).WithClone(v.Coordinate(), shareCloneURLs(v, plan))
	}
	if plan != nil && plan.Intent.Action == preflight.ActAddModerator {
		out.Share = report.ShareOf(v.Coordinate(), report.HintRelay(out.Relays, v.Relays), "--moderator").WithClone(v.Coordinate(), shareCloneURLs(v, plan))
	}
	if a.Opts.JSON {
		return cmdutil.WriteJSON(a, out)
	}
	w, width := a.Io.Out, render.TerminalWidth(a)
	repo.PrintTargetFit(w, width, v)
	// Coordinates, commands, ref names and guidance may carry an
	// announcement's identifier or relay URLs: each is one line.
	fmt.Fprintf(w, "%s\n", termtext.Line(out.Command))
	if a.Verbose {
		render.FitLine(w, width, 2, "repository  "+termtext.Line(render.DisplayCoord(v.Coordinate())))
	}
	for _, l := range lookups {
		// A name looked up for a pubkey argument is verified by that lookup.
		id := out.Names[l.Npub]
		id.NIP05 = l.Name
		out.Names[l.Npub] = id
	}
	pt := render.People(a, out.Names, repo.ViewerNpub(v))
	renderPlan(a, plan, pt, lookups, !out.DryRun && len(out.Published) > 0)
	if len(out.Published) > 0 {
		render.FitLine(w, width, 2, fmt.Sprintf("%s to %s, read back from each", render.Published(a, publishedLabels(out)), render.Count(len(out.Relays), "relay", "relays")))
		if a.Verbose {
			for _, r := range out.Relays {
				render.FitLine(w, width, 4, "  "+relayText(r))
			}
		}
	} else if out.DryRun {
		fmt.Fprintln(w, "preview only (--dry-run): nothing was published")
	}
	if out.SwitchedTo != nil && v.Checkout != nil { // outside a checkout the guidance says what to select
		render.FitLine(w, width, 2, "this checkout now selects "+termtext.Line(*out.SwitchedTo))
		if len(out.SwitchedRemotes) > 0 {
			render.FitLine(w, width, 2, "remote(s) now pointing at the lead: "+termtext.Line(strings.Join(out.SwitchedRemotes, ", ")))
		}
	}
	repo.PrintLinked(a, out)
	advice := out.Advice
	if out.Share != nil {
		who := pt.Of(plan.Intent.Subject)
		if out.Share.CloneURL != "" && len(out.Share.Paste) > 0 {
			// The lines to paste carry the repository and the accept command.
			render.FitLine(w, width, 2, who+" pastes, in a terminal (clone, then accept in the clone):")
			for _, l := range out.Share.Paste {
				fmt.Fprintf(w, "  %s\n", termtext.Line(l))
			}
		} else {
			render.FitLine(w, width, 2, "send "+who+" the repository and the command to accept:")
			fmt.Fprintf(w, "  %s\n  %s\n", termtext.Line(out.Share.URL), termtext.Line(out.Share.AcceptCommand))
		}
		// The invitee's accept, said above, is not said again.
		advice = withoutInviteeAccept(advice)
	}
	if len(advice) > 0 {
		fmt.Fprintln(w, "next:")
		for _, g := range guidanceRows(advice, pt.Named(sel), width) {
			fmt.Fprintln(w, g)
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
		repo.PrintAdvisories(a, after, given...)
	}
	return nil
}

// publishedLabels names each published event: the state event a change
// published first, the announcement(s) after it.
func publishedLabels(out *report.Mutation) [][2]string {
	var l [][2]string
	for _, id := range out.Published {
		what := "announcement"
		if out.StatePublished != nil && out.StatePublished.EventID == id {
			what = "state"
		}
		l = append(l, [2]string{what, id})
	}
	return l
}

// relayText is what one relay said (--verbose).
func relayText(r relaypool.Delivered) string {
	line := fmt.Sprintf("relay %s: ok=%v read_back=%v", termtext.Line(r.URL), r.OK, r.ReadBack)
	if r.Message != "" {
		line += " " + termtext.Line(r.Message)
	}
	return line
}

// withoutInviteeAccept leaves out the advice whose command the invitee
// runs to accept: the share printed it, with the lines to paste.
func withoutInviteeAccept(gs []suggest.Guidance) []suggest.Guidance {
	var out []suggest.Guidance
	for _, g := range gs {
		if g.Command != nil && len(g.Whats) == 1 && len(g.Command.Argv) > 2 && g.Command.Argv[1] == "repo" && g.Command.Argv[2] == "accept" {
			continue
		}
		out = append(out, g)
	}
	return out
}

// guidanceRows are GuidanceLines fitted to the terminal: a row too wide
// is wrapped between words, except its command, which goes whole on a row
// of its own to paste.
func guidanceRows(gs []suggest.Guidance, sel suggest.Selectors, width int) []string {
	var rows []string
	var b strings.Builder
	for _, g := range gs {
		if width > 0 && g.Command != nil && len(g.Whats) < 2 {
			line := termtext.Line(g.Text(sel))
			if len([]rune(line))+2 > width {
				what := termtext.Line(suggest.Join(g.Whats, suggest.GuidanceSeparator).Render(suggest.Selectors{Name: sel.Name}))
				b.Reset()
				render.FitLine(&b, width, 4, "  "+what+" with:")
				rows = append(rows, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")...)
				rows = append(rows, "    "+termtext.Line(sel.Render(*g.Command)))
				continue
			}
		}
		for _, l := range GuidanceLines([]suggest.Guidance{g}, sel) {
			if strings.HasPrefix(l, "roster ") {
				rows = append(rows, "  "+termtext.Line(l)) // a command stays whole, to paste
				continue
			}
			b.Reset()
			render.FitLine(&b, width, 4, "  "+termtext.Line(l))
			rows = append(rows, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")...)
		}
	}
	return rows
}

func tagText(t nostr.Tag) string {
	parts := make([]string, len(t))
	for i, v := range t {
		parts[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// GuidanceLines renders the advice after a mutation. preflight already
// names each command once (Plan.Guidance groups the advice that shares a
// command); a group of several becomes the command on its own line followed
// by each part it covers. The parts concern different people (you, and the
// other co-maintainers who run it in their own checkouts), so the heading
// does not claim that one run covers them all.
func GuidanceLines(gs []suggest.Guidance, sel suggest.Selectors) []string {
	var out []string
	for _, g := range gs {
		if g.Command == nil || len(g.Whats) < 2 {
			out = append(out, g.Text(sel))
			continue
		}
		out = append(out, sel.Render(g.Command.Because("the same command, for each of:")))
		for _, part := range g.Whats {
			out = append(out, "  "+part.Render(suggest.Selectors{Name: sel.Name}))
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

// shareCloneURLs are the Git servers the repository advertises after the
// change (the confirmed component's clone URLs), for the share's clone line.
func shareCloneURLs(v *repo.RepoView, plan *preflight.Plan) []string {
	if plan != nil && plan.After != nil {
		if urls := gitstate.ComponentCloneServers(plan.After); len(urls) > 0 {
			return urls
		}
	}
	if v != nil {
		return gitstate.ComponentCloneServers(v.Resolution)
	}
	return nil
}
