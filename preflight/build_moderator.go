package preflight

import (
	"slices"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// Moderator relationships (maintainers.md "Moderators"): "In a lead-shaped
// repository, the lead's active o assigns a moderator invitation. The
// recipient acknowledges it with an active self-o; confirmation still
// requires the lead's assignment ... In a leadless repository, an active o
// from a confirmed maintainer can assign the invitation. Moderator
// relationships never extend maintainer authority." The adds and removals
// take the maintainers' governance (dispatch runs governance for them) and
// write only the publisher's own o record.

func (v *view) isModerator(p string) bool { return slices.Contains(v.modConfirm, p) }
func (v *view) isModInvited(p string) bool {
	return slices.Contains(v.modInvited, p)
}

// selfModeratorRefusal answers --add-moderator <you>: nobody appoints
// themselves; the recipient only acknowledges an assignment.
func selfModeratorRefusal(v *view, author string) *Refusal {
	switch {
	case v.isConfirmed(author):
		return refuse("self-add", "you cannot appoint yourself moderator, and as a confirmed maintainer you already hold every moderator power").
			run(suggest.Roster("repo").Because("who maintains and moderates it"))
	case v.isModerator(author):
		return refuse("self-add", "you cannot appoint yourself moderator, and you already moderate this repository").
			run(suggest.Roster("repo").Because("who maintains and moderates it"))
	case v.isModInvited(author):
		return refuse("self-add", "you cannot appoint yourself moderator; to acknowledge the moderator role you are offered run: roster repo accept --moderator").
			run(graph.CommandAcceptModerator())
	}
	return refuse("self-add", "you cannot appoint yourself moderator: the lead (in a leadless repository, a confirmed maintainer) assigns the role, and you acknowledge it with: roster repo accept --moderator").
		run(suggest.Roster("repo").Because("who can assign it"))
}

// buildAddModerator: --add-moderator X. The publisher's active o:X starts
// now, after the same governance shape an add-maintainer keeps.
func buildAddModerator(d *draft, v *view, in Intent, dest destination) *Refusal {
	x := in.Subject
	if v.isConfirmed(x) {
		return refuse("already-maintainer",
			say("%s is a confirmed maintainer, who already holds every moderator power; a moderator role would add nothing", who(x))).with("pubkey", npub(x))
	}
	if r := applyGovernance(d, dest); r != nil {
		return r
	}
	if dest == destLeadless && !hasIndexedRoles(d.tags) {
		// A sole maintainer keeping the repository leadless: an o alone
		// would make the announcement role-aware with no maintainer role
		// of its author's (no longer the implicit sole maintainer, and no
		// deliberate no-lead m either), so their role is materialized as
		// an untimed self-m first, the explicit leadless shape.
		if err := d.materialize("m", d.author); err != nil {
			return refuse("ambiguous-history", err.Error())
		}
	}
	r, ok, err := d.find("o", x)
	if err != nil {
		return refuse("ambiguous-history", err.Error())
	}
	if ok && r.active() {
		if v.isModerator(x) {
			return refuse("already-moderator", say("%s is already a confirmed moderator you assign", who(x))).with("pubkey", npub(x))
		}
		return refuse("already-invited",
			say("you already assign %s as moderator; they are invited until they acknowledge with: roster repo accept --moderator", who(x))).with("pubkey", npub(x))
	}
	if err := d.start("o", x); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	return nil
}

// buildRemoveModerator: --remove-moderator X closes only the publisher's
// own active o:X at now.
func buildRemoveModerator(d *draft, v *view, in Intent, dest destination) *Refusal {
	x := in.Subject
	if x == d.author {
		return refuse("self-remove", "to end your own moderator role run: roster repo leave").run(suggest.Roster("repo", "leave"))
	}
	if r := applyGovernance(d, dest); r != nil {
		return r
	}
	r, ok, err := d.find("o", x)
	if err != nil {
		return refuse("ambiguous-history", err.Error())
	}
	if !ok || !r.active() {
		return refuse("not-listed", say("your announcement does not actively assign %s as moderator; there is no relationship of yours to remove", who(x))).
			with("pubkey", npub(x)).run(suggest.Roster("repo").Because("who moderates it, and who assigns whom"))
	}
	if err := d.end("o", x); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	return nil
}

// buildAcceptModerator: `repo accept --moderator` publishes the recipient's
// active self-o and nothing else: no lead pointer, no maintainer record
// (a moderator is no maintainer), every other record kept.
func buildAcceptModerator(d *draft, v *view) *Refusal {
	me := d.author
	switch {
	case v.isConfirmed(me):
		return refuse("already-maintainer", "you are a confirmed maintainer of this repository, which already includes every moderator power; there is no moderator role to accept")
	case v.isModerator(me):
		return refuse("already-moderator", "you are already a confirmed moderator of this repository; there is nothing to accept")
	case !v.isModInvited(me):
		add, asked := Intent{Action: ActAddModerator, Subject: me}, suggest.Text("a maintainer")
		switch {
		case v.leadShaped() && v.lead != "":
			asked = say("the lead %s", who(v.lead))
		case v.leadSource == graph.LeadLegacyInferred && v.lead != "":
			add.Lead = v.lead
		default:
			add.NoLead = true
		}
		r := refuse("not-invited", "nobody who can assign moderators here assigns you; there is no moderator role to accept",
			say("ask %s to assign you with: %s", asked, add.Command())).run(add.Suggest().By(asked...))
		if v.isInvited(me) {
			r.addLines("you are invited as a maintainer: accept that with: roster repo accept")
			r.run(graph.CommandAccept())
		}
		return r
	}
	if cur := v.latest[me]; cur != nil && !hasIndexedRoles(cur.Tags) {
		// A role-less announcement is an implicit (or legacy) maintainer
		// statement about the author's own same-identifier repository; an o
		// record would turn it role-aware and end that silently.
		return refuse("own-repository",
			"your existing announcement for this identifier has no role records, so it makes you the maintainer of your own same-identifier repository",
			"acknowledging a moderator role in it would end that repository's maintainership silently",
			"preserve your repository under a new identifier (or delete that announcement) before accepting")
	}
	if err := d.start("o", me); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	return nil
}

// classifyModerator refuses a moderator change whose consequences go beyond
// its name: the named person's moderator status is the only thing that may
// change, and nobody's maintainer status ever does.
func classifyModerator(v *view, p *Plan, in Input) *Refusal {
	s, it := p.Sim, in.Intent
	named := it.Subject
	switch it.Action {
	case ActAddModerator:
		covering := v.isModerator(named) && p.After.ConfirmedModerator(named) ||
			v.isModInvited(named) && !slices.Contains(s.InvitationsWithdrawn, named)
		if !covering && !slices.Contains(s.NewlyInvited, named) && !slices.Contains(s.ModeratorsGained, named) {
			return refuse("add-has-no-effect",
				say("assigning %s would neither invite nor confirm them as moderator in the resolved repository", who(named)),
				"their own announcement may carry an invalid self-role; ask them to check it").with("pubkey", npub(named))
		}
		return unexpected(s, []string{named}, nil)
	case ActRemoveModerator:
		if still := moderatorStatus(p.After, named); still != "" {
			return moderatorRetainedRefusal(it, p.After, in.Author, still)
		}
		return unexpected(s, nil, []string{named})
	case ActAcceptModerator:
		if !slices.Contains(s.ModeratorsGained, in.Author) {
			return refuse("accept-not-confirming",
				"your acknowledgement would not confirm you as moderator in the resolved repository",
				"the lead path or the assigning roster may have changed; rerun roster repo to see the current state")
		}
		return unexpected(s, []string{in.Author}, nil)
	}
	return nil
}

// moderatorStatus is named's moderator status in r ("" when none).
func moderatorStatus(r *graph.Resolution, named string) string {
	for _, m := range r.Moderators {
		if m.Pubkey == named {
			return m.Status
		}
	}
	return ""
}

// moderatorRetainedRefusal: in a leadless view every confirmed maintainer's
// active o assigns, so another one can keep the removed person moderator
// (or invited); the removal would report success while they remain, so it
// is refused, naming each other assigner and the removal they run.
func moderatorRetainedRefusal(in Intent, after *graph.Resolution, author, status string) *Refusal {
	named := in.Subject
	var assigners []string
	for _, c := range after.Component {
		if c == author {
			continue
		}
		if a := after.Announcements[c]; a != nil {
			for _, r := range a.Roles {
				if r.Letter == graph.RoleModerator && r.Subject == named && r.Active() && !slices.Contains(assigners, c) {
					assigners = append(assigners, c)
				}
			}
		}
	}
	own := Intent{Action: ActRemoveModerator, Subject: named, NoLead: in.NoLead, Lead: in.Lead}.Suggest()
	lines := []any{say("cannot remove %s as moderator: they stay %s through another maintainer's active assignment", who(named), status)}
	var cmds []suggest.Command
	for _, a := range assigners {
		lines = append(lines, say("  %s assigns %s (o)", who(a), who(named)))
		cmds = append(cmds, own.ByPerson(npub(a)))
	}
	lines = append(lines, "if they should go, ask each of them to withdraw their own assignment with:", "  "+own.Line(), "then retry your removal as a separate command")
	return refuse("removal-retained", lines...).with("pubkey", npub(named)).with("assigners", npubs(assigners)).
		run(append(cmds, withoutForce(in).Suggest())...)
}
