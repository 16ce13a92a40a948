package change

import (
	"fmt"
	"io"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/internal/termui"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/termtext"
	"github.com/spf13/cobra"
)

// addVerbose is the --verbose of a membership write.
func addVerbose(cmd *cobra.Command, a *cmdutil.Factory) {
	render.AddVerboseFlag(cmd, a, "also show each change to your announcement with the tag it writes, and the full evidence: relays and rounds, state candidates, role-scoped results, what each relay said")
}

// renderPlan prints the preview in words: what changes for whom, one
// sentence each, people by name; then one line of evidence and what was
// not checked, only when something was not. --verbose adds each change to
// the announcement (with the tag it writes), the lead when it stays, and
// the full evidence. rechecked: the change was published after its
// recheck found nothing changed since the preview.
func renderPlan(a *cmdutil.Factory, plan *preflight.Plan, pt render.PeopleText, lookups cmdutil.Lookups, rechecked bool) {
	w := a.Io.Out
	width := render.TerminalWidth(a)
	p := &termui.Lines{W: w, Width: width}
	if len(lookups) > 0 {
		fmt.Fprintln(w, "looked up:")
	}
	for _, l := range lookups {
		// In full: this is where the user checks which key a name meant.
		sentence(w, p, fmt.Sprintf("%s is %s: its domain lists that key for the name", termtext.Line(l.Name), l.Npub))
	}
	if len(plan.Fields) > 0 {
		fmt.Fprintln(w, "metadata of your announcement:")
		for _, c := range plan.Fields {
			render.FitLine(w, width, 4, fmt.Sprintf("  %-11s %s -> %s", c.Field, fieldText(c.Before), fieldText(c.After)))
		}
	}
	s := plan.Sim
	roles := len(s.NewlyInvited)+len(s.NewlyConfirmed)+len(s.Lost)+len(s.InvitationsWithdrawn)+len(s.ModeratorsGained)+len(s.ModeratorsLost) > 0 || s.Confirmation != nil
	// The announcement's records are the consequence when nobody's role
	// changes (a repair, a history correction); otherwise the
	// consequences below say it in people's words and they are detail.
	records := a.Verbose || !roles && len(plan.Fields) == 0 && plan.State.Publish == nil
	if records && len(plan.Changes)+len(plan.OtherTags) > 0 {
		fmt.Fprintln(w, "your announcement:")
		for _, c := range plan.Changes {
			sentence(w, p, changeSentence(c, plan.Author, pt))
			if a.Verbose {
				render.FitLine(w, width, 8, fmt.Sprintf("      tag %s (%s %s)", tagText(c.After), c.Action, c.Letter))
			}
		}
		list := false // the maintainers list's rewrite, said once without --verbose
		for _, e := range plan.OtherTags {
			switch {
			case a.Verbose || len(e.Tag) == 0 || e.Tag[0] != "maintainers":
				sentence(w, p, otherTagSentence(e, pt))
			case !list && len(plan.Changes) == 0:
				list = true
				sentence(w, p, "rewrites the maintainers list (for clients that read only it)")
			}
		}
	}
	// Under a section above, the consequences have a heading of their own.
	if len(lookups) > 0 || len(plan.Fields) > 0 || records && len(plan.Changes)+len(plan.OtherTags) > 0 {
		fmt.Fprintln(w, "consequences:")
	}
	each := func(people []string, format string) {
		for _, pk := range people {
			sentence(w, p, fmt.Sprintf(format, pt.Of(pk)))
		}
	}
	invited := "%s becomes an invited maintainer (no authority until they accept)"
	switch plan.Intent.Action {
	case preflight.ActAddModerator, preflight.ActAcceptModerator, preflight.ActRemoveModerator:
		// A moderator change's newly invited are moderator invitations.
		invited = "%s becomes an invited moderator (no moderator authority until they accept)"
	}
	each(s.NewlyInvited, invited)
	each(s.NewlyConfirmed, "%s becomes a confirmed maintainer")
	if c := s.Confirmation; c != nil && c.Kind == preflight.ConfirmStanding {
		sentence(w, p, fmt.Sprintf("their acceptance from %s of your assignment that closed at %s still stands, so they are confirmed at once (it was never recorded as a removal)",
			graph.HumanTime(c.AcceptedAt), graph.HumanTime(c.ClosedAt)))
	}
	for _, im := range s.Imported {
		sentence(w, p, fmt.Sprintf("%s joins with them, through their existing listings", pt.Of(im.Pubkey)))
	}
	each(s.Lost, "%s is no longer a maintainer")
	if s.RemovedStaysConfirmed != nil && *s.RemovedStaysConfirmed {
		for _, e := range s.RetainingEdges {
			sentence(w, p, fmt.Sprintf("%s stays confirmed through %s's listing", pt.Of(e.To), pt.Of(e.From)))
		}
	}
	each(s.InvitationsWithdrawn, "%s's invitation is withdrawn")
	each(s.ModeratorsGained, "%s becomes a moderator")
	each(s.ModeratorsLost, "%s is no longer a moderator")
	before, after := leadText(s.LeadBefore, pt), leadText(s.LeadAfter, pt)
	switch {
	case before != after:
		sentence(w, p, "the lead changes from "+before+" to "+after)
	case a.Verbose:
		sentence(w, p, "the lead stays "+after)
	}
	if plan.SwitchTo != nil {
		sentence(w, p, fmt.Sprintf("the selected coordinate becomes %s (was %s)", termtext.Line(render.DisplayCoord(s.SelectedAfter)), termtext.Line(render.DisplayCoord(s.SelectedBefore))))
	}
	if pub := plan.State.Publish; pub != nil {
		what := "with --force, a repository state (kind 30618) with this checkout's branches and tags replaces the other state"
		if pub.Reason == preflight.PublishHandoff {
			what = "the same repository state is published again, signed by you, so the removal does not change it"
		}
		sentence(w, p, fmt.Sprintf("%s (%d ref(s), default branch %s); it is published before the announcement", what, len(pub.Refs), termui.Dash(pub.Head)))
		if pub.Reason == preflight.PublishForce {
			for _, l := range preflight.RenderRefActions(plan.State.ForceWould) {
				render.FitLine(w, width, 8, "      "+termtext.Line(l))
			}
		}
	}
	if !roles {
		sentence(w, p, "nobody gains or loses a role")
	}
	c := plan.State.Counted
	render.PrintEvidence(a, render.Evidence{Relays: c.Relays, State: true, Servers: c.Servers, ServersSame: c.ServersSame, Rechecked: rechecked},
		plan.State.Checked, plan.State.NotChecked)
}

// sentence prints one bulleted sentence, wrapped to the terminal.
func sentence(w io.Writer, p *termui.Lines, text string) {
	for i, l := range termui.Wrap(text, p.Width-4) {
		if i == 0 {
			fmt.Fprintf(w, "  - %s\n", l)
		} else {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
}

// leadText is a lead and its source in the words roster repo uses.
func leadText(l preflight.LeadSummary, pt render.PeopleText) string {
	who := "nobody"
	if l.Lead != "" {
		who = pt.Of(l.Lead)
	}
	return who + " (" + repo.LeadSourceText(l.Source) + ")"
}

// changeSentence says what one role record of the author's announcement
// will say. M is the lead pointer (to oneself: being the lead), m a
// maintainer listing, o a moderator listing; a "defer" end keeps someone's
// interval as history without assigning them.
func changeSentence(c preflight.RoleChange, author string, pt render.PeopleText) string {
	self := c.Subject == author
	who := pt.Of(c.Subject)
	start, end := repo.TagTime(c.After, 2), repo.TagTime(c.After, 3)
	from := ""
	if start != "" {
		from = " from " + start
	}
	role := map[string]string{"M": "lead", "m": "maintainer", "o": "moderator"}[c.Letter]
	if role == "" {
		role = "role " + termtext.Line(c.Letter)
	}
	switch c.Action {
	case "materialize":
		if self && c.Letter == "M" {
			return "records you explicitly as the lead (you were the implicit sole maintainer)" + from
		}
		return fmt.Sprintf("records %s's implicit %s role explicitly%s", who, role, from)
	case "start", "reactivate":
		again := ""
		if c.Action == "reactivate" {
			again = " again"
		}
		switch {
		case self && c.Letter == "M":
			return "records you as the lead" + again + from
		case self:
			return fmt.Sprintf("records your own %s role%s%s", role, again, from)
		case c.Letter == "M":
			return fmt.Sprintf("names %s as your lead%s%s", who, again, from)
		}
		return fmt.Sprintf("lists %s as a %s%s%s", who, role, again, from)
	case "end":
		until := ""
		if end != "" {
			until = " at " + end
		}
		if self {
			return fmt.Sprintf("ends your own %s role%s", role, until)
		}
		return fmt.Sprintf("stops listing %s as a %s%s", who, role, until)
	case "defer":
		return fmt.Sprintf("keeps %s's %s history%s as a record only, without assigning them", who, role, from)
	case "restore":
		if self {
			return fmt.Sprintf("restores your own %s record as your last complete announcement had it, %s", role, tagText(c.After))
		}
		return fmt.Sprintf("restores %s's %s record as your last complete announcement had it, %s", who, role, tagText(c.After))
	case "set":
		switch {
		case end != "" && end != "defer":
			return fmt.Sprintf("records that %s was a %s from %s until %s", who, role, start, end)
		case start != "":
			return fmt.Sprintf("records that %s became a %s on %s", who, role, start)
		}
		return fmt.Sprintf("rewrites %s's %s record", who, role)
	}
	return fmt.Sprintf("%s %s's %s record", termtext.Line(c.Action), who, role)
}

// otherTagSentence says what one tag difference the role and field changes
// do not name does: the maintainers projection by its people, any other
// tag as it is written.
func otherTagSentence(e preflight.TagEdit, pt render.PeopleText) string {
	if len(e.Tag) > 0 && e.Tag[0] == "maintainers" {
		var names []string
		for _, pk := range e.Tag[1:] {
			names = append(names, pt.Of(pk))
		}
		list := "nobody"
		if len(names) > 0 {
			list = joinComma(names)
		}
		if e.Action == "remove" {
			return "drops the maintainers list (for clients that read only it) naming " + list
		}
		return "writes the maintainers list (for clients that read only it) as " + list
	}
	if e.Action == "remove" {
		return "removes the tag " + termtext.Line(tagText(e.Tag))
	}
	return "adds the tag " + termtext.Line(tagText(e.Tag))
}

func joinComma(parts []string) string {
	out := ""
	for i, s := range parts {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}
