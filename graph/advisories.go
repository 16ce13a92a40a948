package graph

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/roster-cli/roster/suggest"
)

// Advisory warnings are the spec's repeated, short, actionable guidance
// (maintainers.md "Recommended defaults" and "Edge cases and failure
// rules"): shown after every human-facing repository command until the
// situation is repaired. They never stop the command. With --json the same
// facts are structured data (health, follow_lead_command,
// pending_history_acknowledgements), so nothing is printed.
//
// Who sees what: the follow-the-lead forward concerns everyone using the
// checkout; removal, compatibility-tag, acceptance, third-party-assignment
// and acknowledgement guidance concerns only the viewer's own announcement.
// The viewer is the signed-in pubkey; with nobody signed in, only the
// forward is shown.

// Advisories returns the warning blocks for viewer ("" when nobody is
// signed in), in a stable order. Their commands are values: the caller
// renders them with the user's selectors.
func Advisories(r *Resolution, viewer string) []suggest.Block {
	id := r.Selected.Identifier
	say, run := suggest.Say, suggest.Run
	var out []suggest.Block
	for _, f := range r.Health {
		switch {
		case f.Code == CodeFollowLead:
			out = append(out, suggest.Block{say(fmt.Sprintf("this checkout uses %s; its lead pointer resolves to %s\nswitch to the lead with: ",
				coordShorthand(f.Author, id), coordShorthand(f.Subject, id))), run(CommandFollowLead())})
		case viewer == "" || f.Author != viewer:
			// Everything below is about the viewer's own announcement.
		case f.Code == CodeRemovedByLead:
			out = append(out, append(sayf("error: %s no longer lists you as a maintainer of this repository\nupdate your announcement and retain its history with: ",
				who(f.Subject)), run(CommandFollowLead())))
		case f.Code == CodeIndirectLeadPointer:
			out = append(out, suggest.Block{say(fmt.Sprintf("your maintainer announcement still reaches %s through %s\npoint directly to the lead with: ",
				coordShorthand(r.Lead, id), coordShorthand(f.Subject, id))), run(CommandFollowLead())})
		case f.Code == CodeProjectionMismatch:
			out = append(out, projectionWarning(r.Announcements[viewer]))
		case f.Code == CodeSelfDefer && f.Command != nil && f.Command.Equal(CommandAccept()):
			out = append(out, suggest.Block{say("your announcement does not contain an active maintainer acceptance\n" +
				"the lead relationship and your self-role must both be active\n" +
				"accept the current invitation with: "), run(CommandAccept())})
		case f.Code == CodeThirdPartyAssignment:
			out = append(out, thirdPartyWarning(r, viewer, f))
		}
	}
	if ack := acknowledgementWarning(r.PendingAcknowledgements, viewer); ack != nil {
		out = append(out, ack)
	}
	switch {
	case !invitedViewer(r, viewer) || acceptAlreadyAdvised(out):
	case departedViewer(r, viewer):
		// A numeric self-role end is a departure; the lead's record still
		// listing them is only an invitation to rejoin.
		out = append(out, suggest.Block{say(fmt.Sprintf("you ended your maintainer role in %s; it still lists you, which is only an invitation to rejoin\nto rejoin, accept with: ",
			coordShorthand(r.Selected.Pubkey, id))), run(CommandAccept())})
	default:
		// An invitee "has no maintainer authority until they accept"; the
		// invitee is the one person who can act on it.
		out = append(out, suggest.Block{say(fmt.Sprintf("you are invited to maintain %s; you have no maintainer authority until you accept\naccept with: ",
			coordShorthand(r.Selected.Pubkey, id))), run(CommandAccept())})
	}
	return out
}

// HumanTime renders a Unix time for people, in UTC.
func HumanTime(unix int64) string {
	if unix <= 0 {
		return "an unknown time"
	}
	return time.Unix(unix, 0).UTC().Format("2006-01-02 15:04:05 UTC")
}

// invitedViewer reports whether the viewer is listed as an invited (not yet
// confirmed) maintainer.
func invitedViewer(r *Resolution, viewer string) bool {
	for _, m := range r.Maintainers {
		if viewer != "" && m.Pubkey == viewer && m.Status == StatusInvited {
			return true
		}
	}
	return false
}

// departedViewer reports whether the viewer's own announcement ends their
// self-role with a numeric boundary and holds no active self-role.
func departedViewer(r *Resolution, viewer string) bool {
	a := r.Announcements[viewer]
	if a == nil {
		return false
	}
	ended := false
	for _, rec := range a.Roles {
		if !rec.Valid || rec.Subject != viewer || (rec.Letter != 'M' && rec.Letter != 'm') {
			continue
		}
		if rec.Active() {
			return false
		}
		ended = ended || rec.NumericallyEnded()
	}
	return ended
}

// acceptAlreadyAdvised: a warning (the self-defer one) already ends with
// the accept command.
func acceptAlreadyAdvised(blocks []suggest.Block) bool {
	for _, b := range blocks {
		if c := b.Closing(); c != nil && c.Equal(CommandAccept()) {
			return true
		}
	}
	return false
}

// coordShorthand is the spec's "alice/my-repo" shorthand, with the npub
// for alice.
func coordShorthand(pubkey, identifier string) string {
	return Npub(pubkey) + "/" + identifier
}

// projectionWarning is the spec's compatibility-roster warning for the
// viewer's own announcement, naming both sides of the mismatch.
func projectionWarning(a *Announcement) suggest.Block {
	var out suggest.Block
	var b strings.Builder
	b.WriteString("your repository announcement has an inconsistent `maintainers` compatibility tag\n")
	b.WriteString("indexed `M` and `m` roles are authoritative\n")
	if a != nil {
		missing, extra, _ := ProjectionDiff(a)
		if len(missing) > 0 || len(extra) > 0 {
			b.WriteString("\n")
		}
		if len(missing) > 0 {
			b.WriteString("missing active roles: ")
			out = append(append(out, suggest.Say(b.String())), suggest.People(Npubs(missing), " ")...)
			b.Reset()
			b.WriteString("\n")
		}
		if len(extra) > 0 {
			b.WriteString("listed without an active role: ")
			out = append(append(out, suggest.Say(b.String())), suggest.People(Npubs(extra), " ")...)
			b.Reset()
			b.WriteString("\n")
		}
		if !a.HasLegacyTag {
			b.WriteString("\nthe `maintainers` tag is missing\n")
		} else if a.LegacyTags > 1 {
			fmt.Fprintf(&b, "\nthe `maintainers` tag appears %d times\n", a.LegacyTags)
		}
	}
	b.WriteString("\nrepair only the compatibility tag with:\n  ")
	return append(out, suggest.Say(b.String()), suggest.Run(CommandFixMaintainers()),
		suggest.Say("\n\nthis repair does not add or remove active maintainers"))
}

// thirdPartyWarning: a co-maintainer's active assignment of a third party in
// a lead-shaped repository, told to both signers in the spec's words. The
// cover is the add of the role the assignment gives (m: maintainer, o:
// moderator), as the finding's own command.
func thirdPartyWarning(r *Resolution, viewer string, f Finding) suggest.Block {
	say, run := suggest.Say, suggest.Run
	subject, lead := who(f.Subject), who(r.Lead)
	assigners := assignersOf(r, f.Subject)
	role := RoleModerator
	for _, x := range assigners {
		if AssignedRole(r.Announcements[x], f.Subject) == RoleMaint {
			role = RoleMaint
		}
	}
	if viewer != r.Lead { // the viewer is the co-maintainer who assigns
		role = AssignedRole(r.Announcements[viewer], f.Subject)
	}
	covered, cover := LeadCovers(r.Announcements[r.Lead], role, f.Subject), CommandCover(role, f.Subject)
	if viewer != r.Lead {
		if covered {
			return append(sayf("your announcement directly assigns %s in a lead-shaped repository\nlet %s manage the co-maintainer roster by running:\n  ",
				subject, lead), run(CommandFollowLead()))
		}
		return append(sayf("your announcement directly assigns %s, but the lead does not\nask %s to run:\n  ", subject, lead),
			run(cover), say("\nthen repair your announcement with:\n  "), run(CommandFollowLead()))
	}
	// The viewer is the lead: name every co-maintainer assigning the subject.
	var b suggest.Block
	if !covered {
		b = append(append(b, sayf("first retain %s through the lead roster with:\n  ", subject)...), run(cover))
	}
	for _, x := range assigners {
		if len(b) > 0 {
			b = append(b, say("\n"))
		}
		b = append(append(b, sayf("%s directly assigns %s instead of following your lead roster\nask %s to repair their announcement with:\n  ",
			who(x), subject, who(x))...), run(CommandFollowLead()))
	}
	return b
}

// assignersOf lists confirmed co-maintainers (not the lead, not a prepared
// lead) whose latest announcement actively assigns subject with m or o
// (ThirdPartySubjects).
func assignersOf(r *Resolution, subject string) []string {
	var out []string
	for author, a := range r.Announcements {
		if author == r.Lead || !r.Confirmed(author) || a.DeclaresLead() {
			continue
		}
		if slices.Contains(ThirdPartySubjects(a, r.Lead), subject) {
			out = append(out, author)
		}
	}
	sort.Strings(out)
	return out
}

// acknowledgementWarning is the persistent guidance for transitions the
// viewer's own announcement has not recorded: the lead gets the exact
// --acknowledge-maintainer-change command per person, a co-maintainer the
// one follow-lead command that syncs them all. No prompt, nothing
// published. Nil when there is nothing to record.
func acknowledgementWarning(acks []PendingAck, viewer string) suggest.Block {
	if viewer == "" {
		return nil
	}
	var b suggest.Block
	followLead := false
	for _, p := range acks {
		if p.Author != viewer {
			continue
		}
		what := p.Phrase()
		if len(b) > 0 {
			b = append(b, suggest.Say("\n"))
		}
		b = append(b, sayf("%s %s at %s.", who(p.Pubkey), what, HumanTime(p.Time))...)
		if p.Command.Equal(CommandFollowLead()) {
			followLead = true
			continue
		}
		b = append(b, suggest.Say("\nrecord this in your replicated membership history with:\n  "), suggest.Run(p.Command))
	}
	if followLead {
		b = append(b, suggest.Say("\nsynchronize your replicated membership history with:\n  "), suggest.Run(CommandFollowLead()))
	}
	return b
}
