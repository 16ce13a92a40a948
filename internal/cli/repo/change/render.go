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
	w := a.Io.Out
	verb := "published"
	if out.DryRun {
		verb = "preview only (--dry-run): nothing was published"
	}
	// Coordinates, commands, ref names and guidance may carry an
	// announcement's identifier or relay URLs: each is one line.
	fmt.Fprintf(w, "%s\n", termtext.Line(out.Command))
	fmt.Fprintf(w, "repository  %s\n", termtext.Line(render.DisplayCoord(v.Coordinate())))
	for _, l := range lookups {
		// A name looked up for a pubkey argument is verified by that lookup.
		id := out.Names[l.Npub]
		id.NIP05 = l.Name
		out.Names[l.Npub] = id
	}
	renderPlan(a, plan, render.People(a, out.Names, repo.ViewerNpub(v)), lookups)
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
	repo.PrintLinked(a, out)
	if out.Share != nil {
		who := render.People(a, out.Names, repo.ViewerNpub(v)).Of(plan.Intent.Subject)
		fmt.Fprintf(w, "send %s the repository and the command to accept:\n  %s\n  %s\n", who,
			termtext.Line(out.Share.URL), termtext.Line(out.Share.AcceptCommand))
		if out.Share.CloneURL != "" {
			fmt.Fprintf(w, "%s pastes, in a terminal (clone, then accept in the clone):\n", who)
			for _, l := range out.Share.Paste {
				fmt.Fprintf(w, "  %s\n", termtext.Line(l))
			}
		}
	}
	if len(out.Advice) > 0 {
		fmt.Fprintln(w, "next:")
		for _, g := range GuidanceLines(namedAdvice(out.Advice, render.People(a, out.Names, repo.ViewerNpub(v))), sel) {
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
		repo.PrintAdvisories(a, after, given...)
	}
	return nil
}

// namedAdvice is the advice with the people of its prose named (pt.Prose);
// the commands stay as they are.
func namedAdvice(gs []suggest.Guidance, pt render.PeopleText) []suggest.Guidance {
	out := make([]suggest.Guidance, len(gs))
	for i, g := range gs {
		whats := make([]string, len(g.Whats))
		for j, w := range g.Whats {
			whats[j] = pt.Prose(w)
		}
		g.Whats = whats
		out[i] = g
	}
	return out
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
