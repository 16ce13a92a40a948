package preflight

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// buildAcknowledge: --acknowledge-maintainer-change X records, in the
// publisher's own active assignment, the transition graph reports as pending
// for this viewer: a confirmation moves the current interval's start from the
// invitation to the acceptance time; a departure closes the assignment at the
// departure time.
func buildAcknowledge(d *draft, v *view, in Intent) *Refusal {
	var ack *graph.PendingAck
	for i := range v.acks {
		if v.acks[i].Pubkey == in.Subject {
			ack = &v.acks[i]
			break
		}
	}
	if ack == nil {
		r := refuse("nothing-to-acknowledge",
			say("there is no pending membership transition of %s for you to record", who(in.Subject))).with("pubkey", npub(in.Subject))
		// The transitions that are pending for you, if any, are what you
		// probably meant; else `roster repo` shows the pending list.
		for _, a := range v.acks {
			r.run(a.Command.Because("the " + a.Transition + " of " + npub(a.Pubkey)))
		}
		if len(r.Commands) == 0 {
			r.Message += "; you have no pending acknowledgements"
			r.run(suggest.Roster("repo").Because("who maintains it, and what is pending"))
		}
		return r
	}
	letter := "m"
	r, ok, err := d.find("m", in.Subject)
	if err == nil && (!ok || !r.active()) {
		if rm, okM, _ := d.find("M", in.Subject); okM && rm.active() {
			r, ok, letter = rm, true, "M"
		}
	}
	if err != nil {
		return refuse("ambiguous-history", err.Error())
	}
	if !ok || !r.active() {
		return refuse("nothing-to-acknowledge",
			say("your announcement has no active assignment of %s in which to record the transition", who(in.Subject)))
	}
	switch ack.Transition {
	case graph.TransitionStart:
		starts := slices.Clone(r.starts)
		if len(starts) == 0 {
			starts = []int64{ack.Time}
		} else {
			if len(starts) > 1 && starts[len(starts)-2] > ack.Time {
				return refuse("history-blocks-change", say("the acceptance time %s precedes the previous end %s of your record for %s", graph.HumanTime(ack.Time), graph.HumanTime(starts[len(starts)-2]), who(in.Subject)))
			}
			starts[len(starts)-1] = ack.Time
		}
		if err := d.set(letter, in.Subject, starts, false); err != nil {
			return refuse("ambiguous-history", err.Error())
		}
	case graph.TransitionEnd:
		if err := d.endAt(letter, in.Subject, ack.Time); err != nil {
			return refuse("history-blocks-change", err.Error())
		}
	default:
		return refuse("nothing-to-acknowledge", say("unknown transition %q for %s", ack.Transition, who(in.Subject)))
	}
	return nil
}

// buildAccept: `repo accept` records the canonical acceptance: an active M to
// the resolved lead (an active m to the inviter in a leadless or legacy view)
// and an active self-m. It never writes a self-M, never adds anyone, and keeps
// every other record of the accepter as it was (their relationships are
// simulated, not dropped). The one allowed repair: a single simple
// [m, self, start, defer] becomes [m, self, start, now, now].
func buildAccept(d *draft, v *view) *Refusal {
	if v.isConfirmed(d.author) {
		return refuse("already-maintainer", "you are already a confirmed maintainer of this repository; there is nothing to accept")
	}
	if !v.isInvited(d.author) {
		// A leadless repository has no lead to ask: any maintainer invites
		// (with the governance choice every leadless add needs).
		add, asked := Intent{Action: ActAdd, Subject: d.author}, suggest.Text("a maintainer")
		switch {
		case v.leadSource == graph.LeadNone || v.leadSource == graph.LeadExplicitNone:
			add.NoLead = true
		case v.lead != "" && v.leadSource == graph.LeadLegacyInferred:
			add.Lead, asked = v.lead, say("the lead %s", who(v.lead)) // the legacy lead confirms the lead view
		case v.lead != "":
			asked = say("the lead %s", who(v.lead))
		}
		return refuse("not-invited", "no confirmed maintainer of this repository actively lists you; there is no invitation to accept",
			say("ask %s to invite you with: %s", asked, add.Command())).run(add.Suggest().By(asked...))
	}
	if r, ok, _ := d.find("M", d.author); ok && r.active() {
		return refuse("own-lead-declaration",
			"your announcement declares you lead of your own same-identifier repository (an active self-M)",
			"accepting would give it two lead views and join the repositories",
			"preserve your repository under a new identifier or reconcile it before accepting")
	}
	if r := acceptRepair(d); r != nil {
		return r
	}
	target, letter := v.lead, "M"
	if !v.leadShaped() || target == "" {
		target, letter = v.inviterOf(d.author), "m"
	}
	if target == "" {
		return refuse("not-invited", "no confirmed maintainer of this repository actively lists you")
	}
	// A legacy announcement's listings are kept, classified into their
	// destination roles (implicit membership: untimed self-m; an existing
	// listing of the lead: untimed M), never dropped by the acceptance. A
	// role-less announcement with no listings (or a new one) has nothing to
	// classify: the acceptance starts now.
	legacyLead := target
	if letter == "m" {
		legacyLead = ""
	}
	if len(legacyListings(d.tags, d.author)) > 0 {
		if err := d.classifyLegacy(destCoMaintainer, legacyLead); err != nil {
			return refuse("ambiguous-history", err.Error())
		}
	}
	if err := d.start(letter, target); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	if err := d.start("m", d.author); err != nil {
		return refuse("history-blocks-change", err.Error())
	}
	return nil
}

// acceptRepair applies the only repair acceptance may combine (maintainers.md
// "Ngit's canonical acceptance contains defer"), or refuses a self-role
// history that needs a separate signer-reviewed repair.
func acceptRepair(d *draft) *Refusal {
	var selfDefer []record
	others := 0
	for _, r := range records(d.tags) {
		isSelf := r.subject == d.author || (!r.valid && len(r.raw) > 1 && r.raw[1] == d.author)
		if !isSelf || r.letter == "o" {
			continue
		}
		if r.valid && r.deferred {
			selfDefer = append(selfDefer, r)
		} else if !r.valid || len(r.starts) >= 2 {
			others++
		}
	}
	if len(selfDefer) == 0 {
		return nil
	}
	simple := len(selfDefer) == 1 && others == 0 && selfDefer[0].letter == "m" && len(selfDefer[0].raw) == 4 &&
		len(selfDefer[0].starts) == 1 && selfDefer[0].starts[0] <= d.at
	if !simple {
		return refuse("invalid-self-role",
			"your announcement's own maintainer history contains an invalid self-role ending in defer that acceptance cannot repair:",
			join(rawTags(selfDefer), "\n"),
			"repair it in a separate signer-reviewed edit (choose whether the old role stays active or give it a numeric end), then accept").
			with("records", rawTags(selfDefer))
	}
	r := selfDefer[0]
	if err := d.set("m", d.author, []int64{r.starts[0], d.at, d.at}, false); err != nil {
		return refuse("ambiguous-history", err.Error())
	}
	return nil
}

// inviterOf picks the confirmed maintainer whose active listing invites p,
// preferring the selected maintainer, else the lowest pubkey.
func (v *view) inviterOf(p string) string {
	var inviters []string
	for _, c := range v.confirmed {
		if v.lists(c, p) {
			inviters = append(inviters, c)
		}
	}
	if slices.Contains(inviters, v.selected) {
		return v.selected
	}
	slices.Sort(inviters)
	if len(inviters) > 0 {
		return inviters[0]
	}
	return ""
}

// buildLeave: `repo leave` ends the publisher's active self-roles (m, and an
// acknowledged self-o) at now and keeps the active M redirect to the lead.
// A role-less (legacy) announcement is a membership mutation's first
// role-aware replacement, so it is classified first (maintainers.md "Legacy
// migration": "A writer MUST classify preserved legacy relationships in
// their destination roles before it generates role transitions"): the
// implicit membership becomes an untimed self-m, a listing of the resolved
// lead an untimed M redirect, every other listing an untimed m; then the
// self-m ends now.
func buildLeave(d *draft, v *view) *Refusal {
	handOverTo := suggest.Roster("repo", "edit", "--lead-maintainer", "<npub>")
	if !hasIndexedRoles(d.tags) {
		if v.lead == d.author {
			return refuse("lead-cannot-leave",
				say("the legacy maintainer listings infer you (%s) as lead; leaving would leave the repository without its roster", npub(d.author)),
				"make the lead explicit and hand it over first: a confirmed maintainer prepares with --lead-maintainer <their npub>, then you point to them").
				run(handOverTo.By(suggest.Say("the new lead")), handOverTo)
		}
		lead := ""
		if v.leadShaped() || v.leadSource == graph.LeadLegacyInferred {
			lead = v.lead
		}
		if err := d.classifyLegacy(destCoMaintainer, lead); err != nil {
			return refuse("ambiguous-history", err.Error())
		}
	}
	if r, ok, _ := d.find("M", d.author); ok && r.active() {
		return refuse("lead-cannot-leave",
			"you are the lead (an active self-M); leaving would leave the repository without its roster",
			"transfer the lead first: a confirmed maintainer prepares with --lead-maintainer <their npub>, then you point to them").
			run(handOverTo.By(suggest.Say("the new lead")), handOverTo)
	}
	ended := false
	for _, letter := range []string{"m", "o"} {
		if r, ok, _ := d.find(letter, d.author); ok && r.active() {
			if err := d.end(letter, d.author); err != nil {
				return refuse("history-blocks-change", err.Error())
			}
			ended = true
		}
	}
	if !ended {
		return refuse("no-active-role", "your announcement has no active self-role to end; you are not a maintainer or moderator here")
	}
	return nil
}

// buildFix: --fix-maintainers rewrites only the projection; every indexed
// role record keeps its bytes (writeProjection runs for every intent).
func buildFix(d *draft) *Refusal {
	if !hasIndexedRoles(d.tags) {
		return refuse("nothing-to-repair", "your announcement has no indexed roles; its `maintainers` tag is the legacy roster, not a projection")
	}
	return nil
}

// baseForNewAnnouncement starts an accepter's first announcement from the
// inviting announcement's shared repository fields only (maintainers.md
// "Coordinates and repository data": "Shared metadata follows the
// repository's existing authoritative recency rules. Personal clone servers,
// relays, Blossom servers, and grasp preferences remain authored
// independently and are unioned only from the confirmed component"). So the
// identifier, name, description, web, hashtags, alt and the identity fields
// (`r` earliest unique commit, `u` upstreams) are copied; the inviter's
// `clone`, `relays` and `blossoms` (where grasp servers appear) are theirs
// and stay out of the accepter's signed statement, as do unknown tags,
// whose meaning roster cannot know. Role records and `maintainers` are
// replaced by the accepter's own roles. The accepter's own `clone` and
// `relays` are not known here, so they are written empty, as ngit writes
// every announcement with them (and `web`) present; Plan.adopt puts the
// whole announcement in ngit's tag order.
func baseForNewAnnouncement(from *nostr.Event) nostr.Tags {
	var out nostr.Tags
	for _, t := range copyTags(from.Tags) {
		if len(t) > 0 && slices.Contains(sharedAnnouncementFields, t[0]) {
			out = append(out, t)
		}
	}
	for _, name := range []string{"clone", "web", "relays"} {
		if !slices.ContainsFunc(out, func(t nostr.Tag) bool { return t[0] == name }) {
			out = append(out, nostr.Tag{name})
		}
	}
	return out
}

// sharedAnnouncementFields are the kind 30617 tags that describe the
// repository rather than one maintainer's infrastructure.
var sharedAnnouncementFields = []string{"d", "name", "description", "web", "r", "u", "t", "alt"}
