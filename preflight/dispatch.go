package preflight

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// validateIntent rejects contradictory flags (exit 2): these are usage
// errors, not safety refusals.
func validateIntent(in Intent) *Refusal {
	usage := func(msg string, cmds ...suggest.Command) *Refusal {
		r := refuse("usage", msg).run(cmds...)
		r.Usage = true
		return r
	}
	switch {
	case in.Lead != "" && in.NoLead:
		return usage("--lead-maintainer and --no-lead-maintainer are two different governance choices; pass exactly one", oneGovernanceChoice(in)...)
	case in.Action == ActFix && (in.Lead != "" || in.NoLead || in.Subject != "" || in.Force):
		return usage("--fix-maintainers must be run alone: it repairs only the compatibility tag", graph.CommandFixMaintainers())
	case in.NoLead && !in.membershipChange():
		return usage("--no-lead-maintainer accompanies one --add-maintainer, --remove-maintainer, --add-moderator or --remove-moderator; converting a lead repository to leadless governance is not offered")
	case in.Action == ActAcknowledge && (in.Lead != "" || in.NoLead):
		return usage("--acknowledge-maintainer-change records one transition and takes no governance choice")
	case (in.membershipChange() || in.Action == ActAcknowledge) && in.Subject == "":
		return usage(fmt.Sprintf("--%s needs a pubkey (npub or 64-hex)", in.Action))
	case in.Action == ActLead && in.Lead == "":
		return usage("--lead-maintainer needs a pubkey (npub or 64-hex)")
	case in.Action == ActRepair && (in.Lead != "" || in.NoLead || in.Subject != "" || in.Force):
		return usage("repo repair is run alone: it restores your announcement's dropped role records and changes nothing else", graph.CommandRepair())
	case in.Action == ActMetadata && (in.Subject != "" || in.Lead != "" || in.NoLead || in.Force):
		return usage(MetadataAloneMessage)
	case in.Action != ActMetadata && !in.Metadata.Empty():
		return usage(MetadataAloneMessage)
	case in.Action == ActMetadata && in.Metadata.Empty():
		return usage("nothing to change: name a field (--name, --description, --web, --clone, --relays, --hashtag)")
	}
	return nil
}

// MetadataAloneMessage refuses a metadata edit combined with anything else:
// a membership change is previewed and verified on its own, so a metadata
// change never rides along unreviewed (and the reverse).
const MetadataAloneMessage = "--name, --description, --web, --clone, --relays and --hashtag change your announcement's metadata only: run them in their own repo edit, without a membership change"

// oneGovernanceChoice is the command once with each of the two
// contradictory choices, so the user picks one instead of re-reading the
// help (a lead declaration alone has only the first).
func oneGovernanceChoice(in Intent) []suggest.Command {
	lead, noLead := in, in
	lead.NoLead, noLead.Lead = false, ""
	cmds := []suggest.Command{lead.Suggest().Because("a lead-shaped repository")}
	if in.membershipChange() {
		cmds = append(cmds, noLead.Suggest().Because("the exceptional leadless model"))
	}
	return cmds
}

// gate runs the checks that apply before the requested change is evaluated:
// flags, --force scope, the author's projection and self-role health, the
// third-party assignment gates and an unresolved lead path.
func gate(v *view, in Input) *Refusal {
	it := in.Intent
	if r := validateIntent(it); r != nil {
		return r
	}
	if it.Force && it.Action != ActAdd && it.Action != ActAccept {
		return forceNotAvailable(it)
	}
	if r := projectionGate(in.Author, v, it); r != nil {
		return r
	}
	if r := selfRoleGate(in.Author, v, it, in.Now); r != nil {
		return r
	}
	if r := thirdPartyGate(v, in.Author, it); r != nil {
		return r
	}
	switch it.Action {
	case ActLead, ActAcknowledge, ActFollowLead, ActAccept, ActAcceptModerator:
		if v.leadSource == graph.LeadPending || v.leadSource == graph.LeadConflict {
			return leadPathRefusal(v)
		}
	}
	return nil
}

// build turns the author's current announcement into the replacement for
// the intent. A nil draft with a nil refusal means no announcement change.
func build(v *view, in Input, p *Plan) (*draft, *Refusal) {
	it := in.Intent
	var dest destination
	if it.Action == ActAdd && it.Subject == in.Author {
		return nil, selfAddRefusal(v, in.Author)
	}
	if it.Action == ActAddModerator && it.Subject == in.Author {
		return nil, selfModeratorRefusal(v, in.Author)
	}
	if it.membershipChange() {
		// The governance and lead checks come first: they say who should run
		// this command, which matters more than whether you have an announcement.
		var r *Refusal
		if dest, r = governance(v, in.Author, it); r != nil {
			return nil, r
		}
	}
	var base nostr.Tags
	switch {
	case p.Current != nil:
		base = p.Current.Tags
	case it.Action == ActAccept || it.Action == ActAcceptModerator:
		src := v.latest[v.lead]
		if src == nil {
			src = v.latest[v.selected]
		}
		if src == nil {
			return nil, refuse("not-invited", "the inviting announcement was not found")
		}
		base = baseForNewAnnouncement(src)
	case it.Action == ActFollowLead:
		return nil, followLeadPrecheck(v)
	default:
		return nil, refuse("no-announcement",
			say("you (%s) have no announcement for this repository; there is nothing of yours to change", npub(in.Author)))
	}
	d := newDraft(in.Author, in.Now, base)
	var r *Refusal
	switch it.Action {
	case ActAdd, ActRemove:
		if it.Action == ActAdd {
			r = buildAdd(d, v, it, dest)
		} else {
			r = buildRemove(d, v, it, dest)
		}
	case ActLead:
		if it.Lead == in.Author {
			r = buildLeadSelf(d, v)
		} else {
			r = buildLeadOther(d, v, it.Lead)
		}
	case ActAddModerator:
		r = buildAddModerator(d, v, it, dest)
	case ActRemoveModerator:
		r = buildRemoveModerator(d, v, it, dest)
	case ActAcceptModerator:
		r = buildAcceptModerator(d, v)
	case ActAcknowledge:
		r = buildAcknowledge(d, v, it)
	case ActFix:
		r = buildFix(d)
	case ActAccept:
		r = buildAccept(d, v)
	case ActLeave:
		r = buildLeave(d, v)
	case ActFollowLead:
		if r = followLeadPrecheck(v); r == nil {
			r = buildFollowLead(d, v)
		}
	case ActMetadata:
		p.Fields = buildMetadata(d, it.Metadata)
	case ActRepair:
		r = buildRepair(d, in, p.Current)
	default:
		r = refuse("usage", fmt.Sprintf("unknown action %q", it.Action))
	}
	if r != nil {
		return nil, r
	}
	return d, nil
}

// followLeadPrecheck: follow-lead needs a resolved lead to follow.
func followLeadPrecheck(v *view) *Refusal {
	switch v.leadSource {
	case graph.LeadExplicit, graph.LeadImplicitSole, graph.LeadLegacyInferred:
		if v.lead != "" {
			return nil
		}
	case graph.LeadPending, graph.LeadConflict:
		return leadPathRefusal(v)
	}
	return refuse("no-lead-to-follow",
		fmt.Sprintf("this repository view has no lead to follow (lead: %s)", v.leadSource.Words()),
		"a deliberately leadless repository has no forward; nothing to change").with("lead_source", string(v.leadSource))
}

func nothingToDo(in Intent) *Refusal {
	msg := "nothing to change: your announcement already expresses this"
	if in.Action == ActFollowLead {
		msg = "nothing to change: your announcement already follows the lead, and the lead's coordinate is the one selected"
	}
	return refuse("nothing-to-change", msg)
}
