package preflight

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// classify compares the simulation with what the intent's name promises and
// refuses anything beyond it (maintainers.md "Required safety posture").
func classify(v *view, p *Plan, in Input) *Refusal {
	s := p.Sim
	it := in.Intent
	named := it.Subject
	switch it.Action {
	case ActAddModerator, ActRemoveModerator, ActAcceptModerator:
		return classifyModerator(v, p, in)
	case ActRepair:
		return repairStatusRefusal(v, fromResolution(p.After, in.Author))
	case ActAdd:
		if len(s.Imported) > 0 {
			return joinRefusal(v, p, named)
		}
		// A second real edge to somebody already confirmed or invited (the lead
		// covering a third-party assignment; a leadless co-maintainer also
		// listing an invitee) changes no status and is allowed.
		covering := slices.Contains(v.confirmed, named) && slices.Contains(p.After.Component, named) ||
			slices.Contains(v.invited, named) && !slices.Contains(s.InvitationsWithdrawn, named)
		if !covering && !slices.Contains(s.NewlyInvited, named) && !slices.Contains(s.NewlyConfirmed, named) {
			return refuse("add-has-no-effect",
				say("listing %s would neither invite nor confirm them in the resolved repository", who(named)),
				"their own announcement may have ended their role or carry an invalid self-role; ask them to check it").with("pubkey", npub(named))
		}
		return unexpected(s, []string{named}, nil)
	case ActRemove:
		if s.RemovedStaysConfirmed != nil && *s.RemovedStaysConfirmed {
			return retainedRefusal(it, s.RetainingEdges, v.lead)
		}
		others := minus(s.Lost, []string{named})
		if len(others) > 0 {
			return partitionRefusal(named, others, "removing", it)
		}
		return unexpected(s, nil, []string{named})
	case ActLead:
		if it.Lead != in.Author {
			// "The error names every confirmed or invited person missing from
			// Bob's active roster" — read from that roster, not from the
			// simulation, which loses everybody when an incomplete roster
			// leaves the handover pending.
			if lost, withdrawn := v.missingFromRoster(it.Lead); len(lost) > 0 || len(withdrawn) > 0 {
				return transferRefusal(it.Lead, lost, withdrawn)
			}
			if stale := v.staleInRoster(it.Lead); len(stale) > 0 {
				return staleTransferRefusal(v, it.Lead, stale)
			}
			if len(s.Lost) > 0 || len(s.InvitationsWithdrawn) > 0 {
				return transferRefusal(it.Lead, s.Lost, s.InvitationsWithdrawn)
			}
		}
		if r := unexpected(s, nil, nil); r != nil {
			return r
		}
	case ActAccept:
		if len(s.Imported) > 0 {
			return joinRefusal(v, p, in.Author)
		}
		if !slices.Contains(s.NewlyConfirmed, in.Author) {
			return refuse("accept-not-confirming",
				"your acceptance would not confirm you in the resolved repository",
				"the lead path or the inviter's roster may have changed; rerun roster repo to see the current state")
		}
		return unexpected(s, []string{in.Author}, nil)
	case ActLeave:
		others := minus(s.Lost, []string{in.Author})
		if len(others) > 0 {
			gov := Intent{}
			if !v.leadShaped() {
				gov.NoLead = true // the remedies are leadless roster changes, which need the choice
			}
			return partitionRefusal(in.Author, others, "your leaving", gov)
		}
		return unexpected(s, nil, []string{in.Author})
	case ActAcknowledge:
		// Recording a departure ends the lead's listing of someone who left.
		return unexpected(s, nil, []string{named})
	default: // fix, follow-lead: history and wire shape only
		if r := unexpected(s, nil, nil); r != nil {
			return r
		}
	}
	return nil
}

// unexpected refuses every membership consequence outside allowedIn (people
// who may become invited/confirmed) and allowedOut (who may stop being a
// maintainer or invitee), and a lead path the change would break.
func unexpected(s Simulation, allowedIn, allowedOut []string) *Refusal {
	var lines []any
	details := map[string]any{}
	add := func(label, key string, people []string) {
		if len(people) > 0 {
			lines = append(lines, label+": "+join(npubs(people), " "))
			details[key] = npubs(people)
		}
	}
	add("would newly invite", "newly_invited", minus(s.NewlyInvited, allowedIn))
	add("would newly confirm", "newly_confirmed", minus(s.NewlyConfirmed, allowedIn))
	add("would remove", "lost", minus(s.Lost, allowedOut))
	add("would withdraw the invitation of", "invitations_withdrawn", minus(s.InvitationsWithdrawn, allowedOut))
	add("would make a moderator of", "moderators_gained", minus(s.ModeratorsGained, allowedIn))
	add("would end the moderator role of", "moderators_lost", minus(s.ModeratorsLost, allowedOut))
	if broken := s.LeadAfter.Source == "pending" || s.LeadAfter.Source == "conflict"; broken && s.LeadBefore.Source != s.LeadAfter.Source {
		lines = append(lines, say("would leave the lead path %s: %s", s.LeadAfter.Source, people(s.LeadAfter.Path, " -> ")))
		details["lead_after"] = s.LeadAfter
	}
	if len(lines) == 0 {
		return nil
	}
	r := refuse("unexpected-membership-change", append([]any{"this change would do more than its name says:"}, indent(lines)...)...)
	r.addLines("nothing was published; make each of these changes deliberately with its own command")
	r.Details = details
	return r
}

// retainedRefusal: "If Bob remains active through a real relationship
// elsewhere ... ngit refuses and names the relevant people and paths. The
// operator must add a relationship that should retain them or remove each
// intended person explicitly." In a lead-shaped repository the retaining
// author converges with follow-lead; a leadless repository has no lead to
// follow, so each retaining author withdraws their own edge. The retry is the
// same command, governance choice included.
func retainedRefusal(in Intent, edges []Edge, lead string) *Refusal {
	named := in.Subject
	lines := []any{say("cannot remove %s: they stay confirmed through another real relationship", who(named))}
	var cmds []suggest.Command
	var authors []string
	for _, e := range edges {
		lines = append(lines, say("  %s -> %s (active assignment by %s)", who(e.From), who(e.To), who(e.From)))
		authors = append(authors, e.From)
	}
	lines = append(lines, "this removal would report success while they remain a maintainer; roster refuses instead")
	if lead != "" {
		lines = append(lines,
			"safe repair: keep them through the lead roster if wanted, then ask each author above to converge with:",
			"  roster repo follow-lead",
			"and retry the removal as a separate command once their edge is historical-only")
		for _, a := range authors {
			cmds = append(cmds, graph.CommandFollowLead().ByPerson(npub(a)))
		}
	} else {
		own := Intent{Action: ActRemove, Subject: named, NoLead: true}.Suggest()
		lines = append(lines,
			"this repository has no lead to converge on: if they should go, ask each author above to withdraw their own edge with:",
			"  "+own.Line(),
			"then retry your removal as a separate command")
		for _, a := range authors {
			cmds = append(cmds, own.ByPerson(npub(a)))
		}
	}
	cmds = append(cmds, withoutForce(in).Suggest())
	r := refuse("removal-retained", lines...).with("pubkey", npub(named)).with("retaining_edges", edgeDetails(edges))
	return r.run(cmds...)
}

// partitionRefusal: "--remove-maintainer Bob fails if ... anyone besides Bob
// loses authority. ... Callers then add a desired direct edge or remove each
// intended person explicitly." The remedy commands carry gov's governance
// choice (a leadless repository needs --no-lead-maintainer on each).
func partitionRefusal(named string, others []string, what string, gov Intent) *Refusal {
	lines := []any{say("%s %s would also disconnect these maintainers from the repository graph:", what, who(named))}
	lines = append(lines, indentPeople(others)...)
	lines = append(lines, "add a relationship that should retain them first, or remove each intended person with its own command")
	var cmds []suggest.Command
	for _, o := range others {
		add := Intent{Action: ActAdd, Subject: o, Lead: gov.Lead, NoLead: gov.NoLead}
		remove := add
		remove.Action = ActRemove
		cmds = append(cmds, add.Suggest(), remove.Suggest())
	}
	return refuse("removal-partitions", lines...).with("pubkey", npub(named)).with("disconnected", npubs(others)).run(cmds...)
}

// transferRefusal is the spec's prepare-first/remove-first lead transfer error.
func transferRefusal(lead string, lost, withdrawn []string) *Refusal {
	would := "withdraw maintainer invitations:"
	if len(lost) > 0 {
		would = "remove confirmed maintainers from the repository graph:"
	}
	lines := []any{say("cannot transfer the lead to %s because their active roster would %s", who(lead), would)}
	if len(lost) > 0 {
		lines = append(lines, indentPeople(lost)...)
	}
	if len(withdrawn) > 0 {
		if len(lost) > 0 {
			lines = append(lines, "", "it would also withdraw these maintainer invitations:")
		}
		lines = append(lines, indentPeople(withdrawn)...)
	}
	prepare := Intent{Action: ActLead, Lead: lead}.Suggest().ByPerson(npub(lead))
	lines = append(lines, "", say("ask %s to publish the complete lead roster before retrying:", who(lead)), cmdLine(prepare), "",
		"or explicitly remove each person before changing the lead:")
	cmds := []suggest.Command{prepare}
	for _, p := range append(append([]string{}, lost...), withdrawn...) {
		c := Intent{Action: ActRemove, Subject: p}.Suggest()
		lines = append(lines, "  "+c.Line())
		cmds = append(cmds, c)
	}
	lines = append(lines, "--force is not available for a lead transfer")
	return refuse("lead-transfer-incomplete-roster", lines...).
		with("proposed_lead", npub(lead)).with("missing_confirmed", npubs(lost)).with("missing_invitations", npubs(withdrawn)).
		run(cmds...)
}

// joinRefusal: an add or accept that would confirm anybody beyond the named
// person is a repository join; --force cannot change that.
func joinRefusal(v *view, p *Plan, named string) *Refusal {
	verb := say("cannot add %s safely", who(named))
	if p.Intent.Action == ActAccept {
		verb = suggest.Text("cannot accept this maintainer invitation safely")
	}
	lines := []any{verb, "", "this change would join another same-identifier repository; its active relationships would also import:"}
	var imported []map[string]any
	for _, im := range p.Sim.Imported {
		for _, e := range im.Edges {
			lines = append(lines, say("  %s via %s -> %s", who(im.Pubkey), who(e.From), who(e.To)))
		}
		if len(im.Edges) == 0 {
			lines = append(lines, indentPeople([]string{im.Pubkey})...)
		}
		imported = append(imported, map[string]any{"pubkey": npub(im.Pubkey), "edges": edgeDetails(im.Edges)})
	}
	lines = append(lines, "", say("ask %s to preserve their repository under a new identifier or reconcile its membership and state with this repository before retrying", who(named)),
		"--force is not available for a repository join")
	return refuse("repository-join", lines...).with("pubkey", npub(named)).with("imported", imported).
		with("component_before", npubs(p.Before.Component)).with("component_after", npubs(p.After.Component))
}

func edgeDetails(es []Edge) []map[string]string {
	out := []map[string]string{}
	for _, e := range es {
		out = append(out, map[string]string{"from": npub(e.From), "to": npub(e.To)})
	}
	return out
}

// identityGate: confirming somebody whose announcement names a different
// earliest unique commit or fork upstream changes repository identity,
// which --force never overrides. An invitation only reports it.
func identityGate(v *view, p *Plan, in Input) *Refusal {
	if len(p.Sim.Identity) == 0 {
		return nil
	}
	confirming := in.Intent.Action == ActAccept || (in.Intent.Action == ActAdd && slices.Contains(p.Sim.NewlyConfirmed, in.Intent.Subject))
	if !confirming {
		return nil
	}
	lines := []any{"cannot confirm this maintainer safely: the repositories' identity differs"}
	for _, c := range p.Sim.Identity {
		lines = append(lines, say("  %-6s %s's announcement: %s; this repository: %s", c.Field, who(c.Who), c.Before, c.After))
	}
	lines = append(lines, "preserve the fork under a new identifier or reconcile both repositories first",
		"--force cannot override an earliest-unique-commit or fork-identity conflict")
	return refuse("identity-conflict", lines...).with("identity_changes", p.Sim.Identity)
}

// followLeadSwitch decides the checkout's new coordinate for follow-lead and
// verifies the lead's rooted view holds the same membership first.
func followLeadSwitch(v *view, p *Plan, in Input, afterEvents []*nostr.Event) *Refusal {
	if in.Intent.Action != ActFollowLead || v.leadSource != graph.LeadExplicit || v.lead == in.Selected.Pubkey {
		return nil
	}
	target := graph.NewCoordinate(v.lead, in.Selected.Identifier)
	rooted := graph.Resolve(afterEvents, target, in.Now, graph.Options{Viewer: in.Author})
	if !slices.Equal(rooted.Component, p.After.Component) {
		return refuse("lead-view-differs",
			say("the lead's coordinate %s resolves a different maintainer set than this checkout's view", who(v.lead)),
			"this checkout: "+join(npubs(p.After.Component), " "),
			"the lead's:    "+join(npubs(rooted.Component), " "),
			"roster does not switch the checkout until both views agree; rerun later").
			with("selected_component", npubs(p.After.Component)).with("lead_component", npubs(rooted.Component))
	}
	if !sameState(in.readState(graph.SelectState(afterEvents, rooted)), in.readState(graph.SelectState(afterEvents, p.After))) {
		return refuse("lead-view-differs",
			say("the lead's coordinate %s resolves different Git state than this checkout's view", who(v.lead)),
			"roster does not switch the checkout until both views agree; rerun later")
	}
	p.SwitchTo = &target
	p.Sim.SelectedAfter = target
	return nil
}

func stateInput(in Input, before, after *graph.Resolution, afterEvents []*nostr.Event, v *view) StateInput {
	si := StateInput{Action: in.Intent.Action, Author: in.Author, LocalRefs: in.LocalRefs, Tracking: in.Tracking, Force: in.Intent.Force,
		Contained: in.Contained, Rewind: in.Intent.Rewinds(), Now: in.Now}
	if in.Intent.Action == ActRemove {
		si.Removed = in.Intent.Subject
	}
	beforeEvt := graph.SelectState(in.Events, before)
	si.Before = in.readState(beforeEvt)
	if beforeEvt != nil {
		si.BeforeAt = int64(beforeEvt.CreatedAt)
	}
	si.After = in.readState(graph.SelectState(afterEvents, after))
	for _, pk := range after.Component {
		if after.Confirmed(pk) && !before.Confirmed(pk) {
			si.Newly = append(si.Newly, PersonState{Pubkey: pk, State: in.readState(graph.LatestStateBy(in.Events, pk))})
		}
	}
	si.Own = in.readState(graph.LatestStateBy(in.Events, in.Author))
	for _, e := range graph.EligibleStates(in.Events, before) {
		if s := in.readState(e); s != nil {
			si.EligibleBefore = append(si.EligibleBefore, s)
		}
	}
	for _, e := range graph.EligibleStates(afterEvents, after) {
		if s := in.readState(e); s != nil {
			si.EligibleAfter = append(si.EligibleAfter, s)
		}
	}
	for _, e := range in.Events {
		if e.Kind == nostr.KindDeletion {
			si.Deletions++
		}
	}
	si.Floor, si.Blocker = stateFloor(in.Events, in.Author, in.Selected.Identifier, in.Now)
	return si
}

// missingFromRoster returns the confirmed maintainers and outstanding
// invitations (maintainer and moderator) that lead's own active roster does
// not assign, the lead themself excepted.
func (v *view) missingFromRoster(lead string) (confirmed, invited []string) {
	roster := v.activeSubjects(lead, "M", "m", "o")
	for _, p := range v.confirmed {
		if p != lead && !slices.Contains(roster, p) {
			confirmed = append(confirmed, p)
		}
	}
	for _, p := range append(append([]string{}, v.invited...), v.modInvited...) {
		if p != lead && !slices.Contains(roster, p) && !slices.Contains(invited, p) {
			invited = append(invited, p)
		}
	}
	return confirmed, invited
}

// staleTransferRefusal: "A leadership transfer cannot complete while the
// proposed lead's history is missing resolved transitions ... The new lead
// first acknowledges the retained view".
func staleTransferRefusal(v *view, lead string, stale []string) *Refusal {
	prepare := Intent{Action: ActLead, Lead: lead}.Suggest()
	lines := []any{say("cannot transfer the lead to %s yet: their roster does not record when these maintainers became confirmed:", who(lead))}
	for _, p := range stale {
		lines = append(lines, say("  %s (effective start %s)", who(p), graph.HumanTime(v.eff[p])))
	}
	lines = append(lines, say("ask %s to acknowledge the retained history by preparing again from a checkout that selects %s's coordinate (the view these starts come from):", who(lead), who(v.selected)), "  "+prepare.Line(),
		"then rerun this command; --force is not available for a lead transfer")
	return refuse("lead-history-incomplete", lines...).with("proposed_lead", npub(lead)).with("stale", npubs(stale)).
		run(prepare.ByPerson(npub(lead)), prepare)
}
