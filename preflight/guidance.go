package preflight

import (
	"slices"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// guidance is what the command prints after success (maintainers.md
// "Recommended defaults"): the lead is shown --acknowledge-maintainer-change,
// co-maintainers follow-lead, an invitee accept. It is advice only: nothing
// here is ever run or published automatically.
func guidance(v *view, p *Plan, in Input) []suggest.Advice {
	var out []suggest.Advice
	note := func(what ...any) {
		for _, w := range what {
			out = append(out, suggest.Note(lineBlock(w)))
		}
	}
	it := in.Intent
	s := p.Sim
	lead := p.After.Lead
	others := func() []string {
		var o []string
		for _, c := range p.After.Component {
			if c != in.Author && c != lead && c != it.Subject {
				o = append(o, c)
			}
		}
		return o
	}
	followers := func() {
		if o := others(); len(o) > 0 && lead != "" {
			out = append(out, suggest.Do(say("other co-maintainers (%s) should record this in their history", people(o, " ")), graph.CommandFollowLead().By(people(o, ", ")...)))
		}
	}
	switch it.Action {
	case ActAdd:
		if c := s.Confirmation; c != nil && c.Kind == ConfirmStanding {
			note(standingAcceptanceNote(it.Subject, c))
		}
		if slices.Contains(s.NewlyConfirmed, it.Subject) {
			note(say("%s already acknowledged this repository, so they are confirmed immediately", who(it.Subject)),
				say("before %s pushes, their client must fetch this repository and compare their local refs with its state", who(it.Subject)))
			followers()
		} else {
			out = append(out, suggest.Do(say("%s is invited; they have no maintainer authority until they accept", who(it.Subject)), graph.CommandAccept().ByPerson(npub(it.Subject))))
		}
	case ActRemove:
		note(say("%s is no longer a maintainer; their commands will report the removal and direct them to: %s", who(it.Subject), graph.CommandFollowLead().Line()))
		followers()
	case ActAccept:
		if lead != "" && lead != in.Author {
			out = append(out, suggest.Do(say("%s will be asked to record your acceptance", who(lead)), graph.CommandAcknowledge(in.Author).ByPerson(npub(lead))))
		}
		followers()
		note("before you push, fetch the repository and compare your local branches with its state")
	case ActAddModerator:
		if slices.Contains(s.ModeratorsGained, it.Subject) {
			note(say("%s already acknowledged a moderator role here, so they are a confirmed moderator now", who(it.Subject)))
			followers()
		} else {
			out = append(out, suggest.Do(say("%s is invited as moderator; they have no moderator authority until they acknowledge it", who(it.Subject)), graph.CommandAcceptModerator().ByPerson(npub(it.Subject))))
		}
	case ActRemoveModerator:
		what := "is no longer a moderator"
		if !slices.Contains(s.ModeratorsLost, it.Subject) {
			what = "is no longer invited as moderator"
		}
		note(say("%s %s; they end their own acknowledgement with: %s", who(it.Subject), what, suggest.Roster("repo", "leave").Line()))
		followers()
	case ActAcceptModerator:
		note("you are a confirmed moderator: you may publish status, label, subject and cover-note events, never repository state or merges")
		followers()
	case ActLeave:
		if !slices.Contains(s.Lost, in.Author) && slices.Contains(s.ModeratorsLost, in.Author) {
			note("you are no longer a moderator")
			followers()
			break
		}
		note("you are no longer a maintainer; your coordinate keeps forwarding to the lead")
		if lead != "" {
			out = append(out, suggest.Do(say("%s will be asked to record your departure", who(lead)), graph.CommandAcknowledge(in.Author).ByPerson(npub(lead))))
		}
		followers()
	case ActLead:
		if it.Lead == in.Author {
			// One self-contained line (the --json list is read line by line).
			current := suggest.Text("the current lead")
			point := Intent{Action: ActLead, Lead: in.Author}.Suggest().By(suggest.Say("the current lead"))
			if s.LeadBefore.Lead != "" && s.LeadBefore.Lead != in.Author {
				current = say("the current lead %s", who(s.LeadBefore.Lead))
				point = point.ByPerson(npub(s.LeadBefore.Lead))
			}
			out = append(out, suggest.Do(say("you are prepared to lead; %s can now point to you", current), point))
		} else {
			out = append(out, suggest.Do(say("you are now a co-maintainer of %s; switch this checkout to the lead", who(it.Lead)), graph.CommandFollowLead()))
			followers()
		}
	case ActFollowLead:
		if p.SwitchTo != nil {
			// Said of the author: outside a checkout nothing local switches.
			note(say("you now follow the lead %s", who(p.SwitchTo.Pubkey)))
		}
	}
	for _, a := range s.PendingAcknowledgements {
		if a.Author == in.Author {
			out = append(out, suggest.Do(say("record the %s of %s", a.Transition, who(a.Pubkey)), a.Command))
		}
	}
	return out
}
