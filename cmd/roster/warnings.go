package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/roster-cli/roster/graph"
)

// Advisory warnings are the spec's repeated, short, actionable guidance
// (maintainers.md "Recommended defaults" and "Edge cases and failure rules"):
// printed on stderr after every human-facing repository command until the
// situation is repaired. They never stop the command. With --json the same
// facts are structured data (health, follow_lead_command,
// pending_history_acknowledgements), so nothing is printed.
//
// Who sees what: the follow-the-lead forward concerns everyone using the
// checkout; removal, compatibility-tag, acceptance, third-party-assignment
// and acknowledgement guidance concerns only the viewer's own announcement.
// The viewer is the ROSTER_SECRET_KEY or logged-in pubkey; with neither,
// only the forward is shown.

// printAdvisories writes the advisory warnings for v to stderr.
func (a *app) printAdvisories(v *repoView) {
	if a.opts.JSON {
		return
	}
	blocks := advisories(v.Resolution, v.Viewer)
	for i, b := range blocks {
		if i > 0 {
			fmt.Fprintln(a.io.Err)
		}
		fmt.Fprintln(a.io.Err, a.withAdvisorySelectors(b))
	}
}

// withAdvisorySelectors adds the user's --repo and --relay to each command an
// advisory names after "with: ", so it runs as printed outside a checkout.
func (a *app) withAdvisorySelectors(block string) string {
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		if j := strings.Index(l, "with: roster "); j >= 0 {
			at := j + len("with: ")
			lines[i] = l[:at] + a.withSelectors(l[at:])
		}
	}
	return strings.Join(lines, "\n")
}

// advisories returns the warning blocks, in a stable order, for the viewer
// ("" when nobody is signed in).
func advisories(r *graph.Resolution, viewer string) []string {
	id := r.Selected.Identifier
	var out []string
	for _, f := range r.Health {
		switch {
		case f.Code == graph.CodeFollowLead:
			out = append(out, fmt.Sprintf("this checkout uses %s; its lead pointer resolves to %s\nswitch to the lead with: %s",
				coordShorthand(f.Author, id), coordShorthand(f.Subject, id), graph.CommandFollowLead))
		case viewer == "" || f.Author != viewer:
			// Everything below is about the viewer's own announcement.
		case f.Code == graph.CodeRemovedByLead:
			out = append(out, fmt.Sprintf("error: %s no longer lists you as a maintainer of this repository\nupdate your announcement and retain its history with: %s",
				graph.Npub(f.Subject), graph.CommandFollowLead))
		case f.Code == graph.CodeIndirectLeadPointer:
			out = append(out, fmt.Sprintf("your maintainer announcement still reaches %s through %s\npoint directly to the lead with: %s",
				coordShorthand(r.Lead, id), coordShorthand(f.Subject, id), graph.CommandFollowLead))
		case f.Code == graph.CodeProjectionMismatch:
			out = append(out, projectionWarning(r.Announcements[viewer]))
		case f.Code == graph.CodeSelfDefer && f.Command == graph.CommandAccept:
			out = append(out, "your announcement does not contain an active maintainer acceptance\n"+
				"the lead relationship and your self-role must both be active\n"+
				"accept the current invitation with: "+graph.CommandAccept)
		case f.Code == graph.CodeThirdPartyAssignment:
			out = append(out, thirdPartyWarning(r, viewer, f))
		}
	}
	if ack := acknowledgementWarning(r.PendingAcknowledgements, viewer); ack != "" {
		out = append(out, ack)
	}
	switch {
	case !invitedViewer(r, viewer) || acceptAlreadyAdvised(out):
	case departedViewer(r, viewer):
		// A numeric self-role end is a departure; the lead's record still
		// listing them is only an invitation to rejoin.
		out = append(out, fmt.Sprintf("you ended your maintainer role in %s; it still lists you, which is only an invitation to rejoin\nto rejoin, accept with: %s",
			coordShorthand(r.Selected.Pubkey, id), graph.CommandAccept))
	default:
		// maintainers.md: an invitee "has no maintainer authority until they
		// accept"; the invitee is the one person who can act on it.
		out = append(out, fmt.Sprintf("you are invited to maintain %s; you have no maintainer authority until you accept\naccept with: %s",
			coordShorthand(r.Selected.Pubkey, id), graph.CommandAccept))
	}
	return out
}

// invitedViewer reports whether the viewer is listed as an invited (not yet
// confirmed) maintainer.
func invitedViewer(r *graph.Resolution, viewer string) bool {
	for _, m := range r.Maintainers {
		if viewer != "" && m.Pubkey == viewer && m.Status == graph.StatusInvited {
			return true
		}
	}
	return false
}

// departedViewer reports whether the viewer's own announcement ends their
// self-role with a numeric boundary and holds no active self-role.
func departedViewer(r *graph.Resolution, viewer string) bool {
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

// acceptAlreadyAdvised: the self-defer warning already ends with the accept command.
func acceptAlreadyAdvised(blocks []string) bool {
	for _, b := range blocks {
		if strings.HasSuffix(b, graph.CommandAccept) {
			return true
		}
	}
	return false
}

// short is the spec's "alice/my-repo" shorthand, with the npub for alice.
func coordShorthand(pubkey, identifier string) string {
	return graph.Npub(pubkey) + "/" + identifier
}

// projectionWarning is the spec's compatibility-roster warning for the
// viewer's own announcement, naming both sides of the mismatch.
func projectionWarning(a *graph.Announcement) string {
	var b strings.Builder
	b.WriteString("your repository announcement has an inconsistent `maintainers` compatibility tag\n")
	b.WriteString("indexed `M` and `m` roles are authoritative\n")
	if a != nil {
		missing, extra, _ := graph.ProjectionDiff(a)
		if len(missing) > 0 || len(extra) > 0 {
			b.WriteString("\n")
		}
		if len(missing) > 0 {
			b.WriteString("missing active roles: " + joinNpubs(missing) + "\n")
		}
		if len(extra) > 0 {
			b.WriteString("listed without an active role: " + joinNpubs(extra) + "\n")
		}
		if !a.HasLegacyTag {
			b.WriteString("\nthe `maintainers` tag is missing\n")
		} else if a.LegacyTags > 1 {
			fmt.Fprintf(&b, "\nthe `maintainers` tag appears %d times\n", a.LegacyTags)
		}
	}
	b.WriteString("\nrepair only the compatibility tag with:\n  " + graph.CommandFixMaintainers + "\n\n")
	b.WriteString("this repair does not add or remove active maintainers")
	return b.String()
}

// thirdPartyWarning: a co-maintainer's active assignment of a third party in
// a lead-shaped repository, told to both signers in the spec's words.
func thirdPartyWarning(r *graph.Resolution, viewer string, f graph.Finding) string {
	subject, lead := graph.Npub(f.Subject), graph.Npub(r.Lead)
	// Third-party findings are about a co-maintainer's active m.
	covered := graph.LeadCovers(r.Announcements[r.Lead], graph.RoleMaint, f.Subject)
	if viewer != r.Lead { // the viewer is the co-maintainer who assigns
		if covered {
			return fmt.Sprintf("your announcement directly assigns %s in a lead-shaped repository\nlet %s manage the co-maintainer roster by running:\n  %s",
				subject, lead, graph.CommandFollowLead)
		}
		return fmt.Sprintf("your announcement directly assigns %s, but the lead does not\nask %s to run:\n  %s\nthen repair your announcement with:\n  %s",
			subject, lead, graph.CommandAddMaintainer(f.Subject), graph.CommandFollowLead)
	}
	// The viewer is the lead: name every co-maintainer assigning the subject.
	var text []string
	if !covered {
		text = append(text, fmt.Sprintf("first retain %s through the lead roster with:\n  %s", subject, graph.CommandAddMaintainer(f.Subject)))
	}
	for _, x := range assignersOf(r, f.Subject) {
		text = append(text, fmt.Sprintf("%s directly assigns %s instead of following your lead roster\nask %s to repair their announcement with:\n  %s",
			graph.Npub(x), subject, graph.Npub(x), graph.CommandFollowLead))
	}
	return strings.Join(text, "\n")
}

// assignersOf lists confirmed co-maintainers (not the lead) whose latest
// announcement actively assigns subject with m.
func assignersOf(r *graph.Resolution, subject string) []string {
	var out []string
	for author, a := range r.Announcements {
		if author == r.Lead || !r.Confirmed(author) {
			continue
		}
		for _, rec := range a.Roles {
			if rec.Letter == graph.RoleMaint && rec.Subject == subject && rec.Active() {
				out = append(out, author)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// acknowledgementWarning is the persistent guidance for transitions the
// viewer's own announcement has not recorded: the lead gets the exact
// --acknowledge-maintainer-change command per person, a co-maintainer the
// one follow-lead command that syncs them all. No prompt, nothing published.
func acknowledgementWarning(acks []graph.PendingAck, viewer string) string {
	if viewer == "" {
		return ""
	}
	var lines []string
	followLead := false
	for _, p := range acks {
		if p.Author != viewer {
			continue
		}
		what := "accepted maintainership"
		if p.Transition == graph.TransitionEnd {
			what = "left maintainership"
		}
		lines = append(lines, fmt.Sprintf("%s %s at %s.", graph.Npub(p.Pubkey), what, humanTime(p.Time)))
		if p.Command == graph.CommandFollowLead {
			followLead = true
			continue
		}
		lines = append(lines, "record this in your replicated membership history with:", "  "+p.Command)
	}
	if followLead {
		lines = append(lines, "synchronize your replicated membership history with:", "  "+graph.CommandFollowLead)
	}
	return strings.Join(lines, "\n")
}

func joinNpubs(pks []string) string { return strings.Join(graph.Npubs(pks), " ") }
