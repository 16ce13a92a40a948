package preflight

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// governance decides which shape an add or remove keeps, or refuses
// (maintainers.md "Recommended defaults", "Everyday commands", "Legacy migration").
func governance(v *view, author string, in Intent) (destination, *Refusal) {
	switch v.leadSource {
	case graph.LeadPending, graph.LeadConflict:
		return 0, leadPathRefusal(v)
	case graph.LeadImplicitSole:
		if v.lead != author {
			return 0, notMaintainerRefusal(v, author)
		}
		switch {
		case in.NoLead:
			return destLeadless, nil
		case in.Lead == "" || in.Lead == author:
			return destLead, nil
		}
		return 0, leadNotConfirmedRefusal(in.Lead)
	case graph.LeadExplicit:
		if v.lead != author {
			return 0, onlyLeadRefusal(v, in)
		}
		if in.NoLead {
			return 0, refuse("lead-exists",
				say("this repository has an explicit lead (%s); --no-lead-maintainer cannot remove an existing lead", who(v.lead)),
				"converting a lead repository to leadless governance needs a separate transition workflow that roster does not offer",
				"rerun without --no-lead-maintainer to keep the lead:").
				with("lead", npub(v.lead)).run(withoutGovernance(in).Suggest())
		}
		if in.Lead != "" && in.Lead != author {
			return 0, refuse("one-decision-per-command",
				"changing the lead and changing the roster are separate decisions",
				"make the roster change first, then change the lead with its own command:").
				run(withoutGovernance(in).Suggest(), Intent{Action: ActLead, Lead: in.Lead}.Suggest())
		}
		return destLead, nil
	}
	// legacy_inferred, none, explicit_none: a governance choice is required.
	if !v.isConfirmed(author) {
		return 0, notMaintainerRefusal(v, author)
	}
	if in.Lead == "" && !in.NoLead {
		r := refuse("governance-choice-required",
			"a lead maintainer must be assigned for this membership change",
			"choose one with: --lead-maintainer <npub>",
			"or keep the repository leadless with: --no-lead-maintainer").
			with("lead_source", string(v.leadSource))
		if v.leadSource == graph.LeadLegacyInferred && v.lead != "" {
			r.addLines(say("the legacy maintainer listings infer %s as lead", who(v.lead)))
			r.with("legacy_inferred_lead", npub(v.lead))
			lead := in
			lead.Lead = v.lead
			if v.lead == author {
				r.run(lead.Suggest())
			}
		}
		if v.leadSource != graph.LeadLegacyInferred {
			// No lead to recommend: becoming lead yourself is the other
			// choice that works (naming somebody else is a separate decision).
			self := in
			self.Lead = author
			r.run(self.Suggest().Because("you become lead"))
		}
		nolead := in
		nolead.NoLead = true
		return 0, r.run(nolead.Suggest())
	}
	if in.NoLead {
		return destLeadless, nil
	}
	if in.Lead == author {
		return destLead, nil
	}
	return 0, refuse("one-decision-per-command",
		say("naming %s lead makes you a co-maintainer, and a co-maintainer does not change the roster", who(in.Lead)),
		say("%s first prepares as lead with the complete roster; then point to them and ask them to make this change:", who(in.Lead))).
		with("proposed_lead", npub(in.Lead)).
		run(Intent{Action: ActLead, Lead: in.Lead}.Suggest().ByPerson(npub(in.Lead)),
			Intent{Action: ActLead, Lead: in.Lead}.Suggest(),
			withoutGovernance(in).Suggest().ByPerson(npub(in.Lead)))
}

func withoutGovernance(in Intent) Intent {
	in.Lead, in.NoLead, in.Force = "", false, false
	return in
}

func leadPathRefusal(v *view) *Refusal {
	return refuse("lead-path-unresolved",
		say("the lead path from the selected coordinate is %s: %s", v.leadSource, people(v.leadPath, " -> ")),
		"membership and lead changes that depend on that path are blocked, and --no-lead-maintainer does not override it",
		"ask the signer of the failing pointer to publish a valid lead declaration, then rerun",
		"inspect the path (lead_source, lead_path) with: roster repo").
		with("lead_source", string(v.leadSource)).with("lead_path", npubs(v.leadPath)).run(suggest.Roster("repo"))
}

func notMaintainerRefusal(v *view, author string) *Refusal {
	return refuse("not-a-maintainer",
		say("you (%s) are not a confirmed maintainer of this repository", npub(author)),
		"only confirmed maintainers change its roster").
		with("you", npub(author)).with("confirmed", npubs(v.confirmed))
}

func leadNotConfirmedRefusal(lead string) *Refusal {
	return refuse("lead-not-confirmed",
		say("%s is not a confirmed maintainer; the proposed lead must join and accept first", who(lead))).
		with("proposed_lead", npub(lead))
}

// onlyLeadRefusal is the spec's "only the resolved lead should add maintainers"
// (and, as the lead manages "the maintainer and moderator roster", moderators).
func onlyLeadRefusal(v *view, in Intent) *Refusal {
	verb := map[Action]string{ActAdd: "add maintainers to", ActRemove: "remove maintainers from",
		ActAddModerator: "add moderators to", ActRemoveModerator: "remove moderators from"}[in.Action]
	return refuse("only-lead-manages-roster",
		fmt.Sprintf("only the resolved lead should %s this repository", verb),
		say("ask %s to run:", who(v.lead)),
		"  "+withoutGovernance(in).Command()).
		with("lead", npub(v.lead)).
		run(withoutGovernance(in).Suggest().ByPerson(npub(v.lead)))
}

// thirdPartyAssignments returns a confirmed co-maintainer's active third-party maintainer and
// moderator assignments in a lead-shaped repository: records ngit never writes
// for a co-maintainer but must resolve honestly (maintainers.md "A
// co-maintainer actively assigns a third party"). graph.ThirdPartySubjects
// is the reading health uses too, so the gates and health agree.
func (v *view) thirdPartyAssignments(author string) []string {
	// A prepared lead (active self-M) publishes a complete roster on purpose.
	if v.leadSource != graph.LeadExplicit || author == v.lead || !v.isConfirmed(author) || v.declaresSelfLead(author) {
		return nil
	}
	a := v.anns[author]
	if a == nil || !a.RoleAware() {
		return nil
	}
	return graph.ThirdPartySubjects(a, v.lead)
}

// leadCovers reports whether the lead's own announcement covers author's
// active third-party assignment of subject (graph.LeadCovers), in the role
// that assignment gives (graph.AssignedRole): maintainer when author lists
// subject with M or m, else moderator.
func (v *view) leadCovers(author, subject string) bool {
	return graph.LeadCovers(v.anns[v.lead], graph.AssignedRole(v.anns[author], subject), subject)
}

// coverIntent is the lead's add that covers author's assignment of
// subject: --add-moderator for an o, --add-maintainer for an m.
func (v *view) coverIntent(author, subject string) Intent {
	if graph.AssignedRole(v.anns[author], subject) == graph.RoleModerator {
		return Intent{Action: ActAddModerator, Subject: subject}
	}
	return Intent{Action: ActAdd, Subject: subject}
}

// thirdPartyGate applies both edit gates of a co-maintainer's active
// third-party assignment: the co-maintainer may run only follow-lead; the lead
// only the one-at-a-time adds that cover each subject.
func thirdPartyGate(v *view, author string, in Intent) *Refusal {
	if in.Action == ActRepair {
		return nil // restores records as they were; repairStatusRefusal refuses any status it would change
	}
	if subjects := v.thirdPartyAssignments(author); len(subjects) > 0 && in.Action != ActFollowLead {
		return coMaintainerAssignsRefusal(v, author, subjects)
	}
	if v.leadSource != graph.LeadExplicit || author != v.lead || in.Action == ActFollowLead {
		return nil // the lead's follow-lead changes no roster
	}
	var offenders []string
	uncovered := map[string][]Intent{} // per co-maintainer, the adds that cover their subjects
	for _, c := range v.confirmed {
		for _, s := range v.thirdPartyAssignments(c) {
			if !slices.Contains(offenders, c) {
				offenders = append(offenders, c)
			}
			if add := v.coverIntent(c, s); !v.leadCovers(c, s) && !slices.Contains(uncovered[c], add) {
				uncovered[c] = append(uncovered[c], add)
			}
		}
	}
	if len(offenders) == 0 {
		return nil
	}
	// The one lead-side exception: the add that covers a subject in the
	// role assigned, exactly (an --add-maintainer for an o subject would
	// invite a maintainer, not retain a moderator).
	if in.Lead == "" && !in.NoLead {
		for _, adds := range uncovered {
			if slices.ContainsFunc(adds, func(a Intent) bool { return a.Action == in.Action && a.Subject == in.Subject }) {
				return nil
			}
		}
	}
	sort.Strings(offenders)
	r := refuse("co-maintainer-third-party-assignment")
	var lines []any
	var adds []suggest.Command
	for _, c := range offenders {
		lines = append(lines, say("%s directly assigns %s instead of following your lead roster",
			who(c), people(v.thirdPartyAssignments(c), " ")))
		for _, add := range uncovered[c] {
			cmd := add.Suggest()
			if !slices.ContainsFunc(adds, cmd.Equal) {
				adds = append(adds, cmd)
			}
		}
	}
	if len(adds) > 0 {
		lines = append(lines, "first retain them through the lead roster with:")
		lines = append(lines, indent(commandLines(adds))...)
	}
	lines = append(lines, "ask each of them to repair their announcement with:", "  roster repo follow-lead",
		"until then the only repository edit you can make is the add of an uncovered subject")
	r.addLines(lines...)
	r.with("co_maintainers", npubs(offenders))
	return r.run(append(adds, graph.CommandFollowLead().By(suggest.People(npubs(offenders), ", ")...))...)
}

func coMaintainerAssignsRefusal(v *view, author string, subjects []string) *Refusal {
	var uncovered []string
	for _, s := range subjects {
		if !v.leadCovers(author, s) {
			uncovered = append(uncovered, s)
		}
	}
	r := refuse("third-party-assignment").with("subjects", npubs(subjects)).with("lead", npub(v.lead))
	if len(uncovered) == 0 {
		r.addLines(
			say("your announcement directly assigns %s in a lead-shaped repository", people(subjects, " ")),
			say("let %s manage the co-maintainer roster by running:", who(v.lead)),
			"  roster repo follow-lead")
		return r.run(graph.CommandFollowLead())
	}
	lines := []any{say("your announcement directly assigns %s, but the lead does not", people(uncovered, " ")),
		say("ask %s to run:", who(v.lead))}
	var cmds []suggest.Command
	for _, s := range uncovered {
		c := v.coverIntent(author, s).Suggest()
		lines = append(lines, "  "+c.Line())
		cmds = append(cmds, c.ByPerson(npub(v.lead)))
	}
	lines = append(lines, "then repair your announcement with:", "  roster repo follow-lead")
	r.addLines(lines...)
	r.with("uncovered", npubs(uncovered))
	return r.run(append(cmds, graph.CommandFollowLead())...)
}

// projectionGate: while the author's `maintainers` projection disagrees with
// their indexed roles, every edit but --fix-maintainers fails before its own
// change is evaluated (maintainers.md "The compatibility roster contradicts
// indexed roles").
func projectionGate(author string, v *view, in Intent) *Refusal {
	ann := v.anns[author]
	if ann == nil {
		return nil
	}
	if !ann.RoleAware() {
		if in.Action == ActFix {
			return refuse("nothing-to-repair", "your announcement has no indexed roles; its `maintainers` tag is the legacy roster, not a projection")
		}
		return nil
	}
	missing, extra, ok := graph.ProjectionDiff(ann)
	if ok {
		if in.Action == ActFix {
			return refuse("nothing-to-repair", "your announcement's `maintainers` compatibility tag already matches its active M and m roles")
		}
		return nil
	}
	if in.Action == ActFix || in.Action == ActRepair {
		return nil // the repair writes the projection of what it restores
	}
	lines := []any{"your repository announcement has an inconsistent `maintainers` compatibility tag",
		"indexed `M` and `m` roles are authoritative", ""}
	if len(missing) > 0 {
		lines = append(lines, "missing active roles: "+join(npubs(missing), " "))
	}
	if len(extra) > 0 {
		lines = append(lines, "listed without an active role: "+join(npubs(extra), " "))
	}
	if ann.LegacyTags != 1 {
		lines = append(lines, fmt.Sprintf("the announcement carries %d `maintainers` tags instead of exactly one", ann.LegacyTags))
	}
	lines = append(lines, "", "repair only the compatibility tag with:", "  roster repo edit --fix-maintainers", "",
		"this repair does not add or remove active maintainers; rerun your command after it")
	return refuse("maintainers-projection-mismatch", lines...).
		with("missing", npubs(missing)).with("extra", npubs(extra)).
		run(graph.CommandFixMaintainers())
}

// selfRoleGate blocks an author whose own self-role records are broken: an
// unsuperseded self-defer, or self records that are all unparseable
// (maintainers.md "Ngit's canonical acceptance contains defer", "Malformed is
// not departure"). Accept runs its own narrower check (the combined repair).
// Acceptance is offered as the way out only when it can actually repair the
// record: "If there is no current invitation, or the history requires a
// separate repair, the client reports that fact instead of offering an
// acceptance command".
func selfRoleGate(author string, v *view, in Intent, now int64) *Refusal {
	if in.Action == ActAccept || in.Action == ActFix || in.Action == ActRepair {
		return nil
	}
	evt := v.latest[author]
	if evt == nil {
		return nil
	}
	bad := blockingSelfRecords(v.anns[author])
	if len(bad) == 0 {
		return nil
	}
	r := refuse("invalid-self-role",
		"your announcement's own role history is invalid and no later active self-role supersedes it:",
		join(bad, "\n"),
		"a self-role cannot end in defer and malformed records carry no role; roster will not choose a numeric end for you").
		with("records", bad)
	switch {
	case acceptCanRepair(v, author, evt, now):
		r.Message += "\naccept the current invitation with: roster repo accept (it repairs this record as [start, now, now])"
		r.run(graph.CommandAccept())
	case !v.isInvited(author):
		r.Message += "\nthere is no current invitation to accept; correct these records in a signer-reviewed repair before other announcement changes"
	default:
		r.Message += "\nthis history needs a separate signer-reviewed repair before other announcement changes or an acceptance"
	}
	return r
}

// acceptCanRepair: an acceptance may combine with the repair only for one
// simple [m, author, start, defer] record, and only while a confirmed
// maintainer invites the author.
func acceptCanRepair(v *view, author string, evt *nostr.Event, now int64) bool {
	if !v.isInvited(author) {
		return false
	}
	selfDefer := false
	for _, r := range records(evt.Tags) {
		if r.valid && r.deferred && r.subject == author {
			selfDefer = true
		}
	}
	return selfDefer && acceptRepair(newDraft(author, now, evt.Tags)) == nil
}

// blockingSelfRecords returns the raw tags of the author's records that block
// them: graph's author-blocked rule (graph.Announcement.BlockingSelfRecords),
// shared with the read side so the write gate and confirmation agree.
func blockingSelfRecords(ann *graph.Announcement) []string {
	var out []string
	for _, r := range ann.BlockingSelfRecords() {
		out = append(out, tagJSON(r.Raw))
	}
	return out
}

// rawTags shows records as written, for refusals that quote them.
func rawTags(rs []record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = tagJSON(r.raw)
	}
	return out
}

// tagJSON renders a tag as a JSON array, the way a signer sees it in the
// event.
func tagJSON(t nostr.Tag) string {
	b, _ := json.Marshal(t)
	return string(b)
}

func join(list []string, sep string) string { return strings.Join(list, sep) }

func joinLines(lines []string) string { return strings.Join(lines, "\n") }
