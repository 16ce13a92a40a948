package graph

import (
	"slices"

	"github.com/roster-cli/roster/suggest"
)

// ThirdPartySubjects returns, in record order and once each, the people a
// co-maintainer's announcement a actively assigns with m or o other than
// its author and the lead: the shape maintainers.md "A co-maintainer
// actively assigns a third party" reports to both signers and gates. It is
// the one reading of that shape, so health, the warnings and the edit gates
// agree on who is a subject. (A lead pointer M is not an assignment; an m
// or o naming the lead is the edge back to them.)
func ThirdPartySubjects(a *Announcement, lead string) []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, r := range a.Roles {
		if (r.Letter == RoleMaint || r.Letter == RoleModerator) && r.Active() &&
			r.Subject != a.Author && r.Subject != lead && !slices.Contains(out, r.Subject) {
			out = append(out, r.Subject)
		}
	}
	return out
}

// AssignedRole is the role a's active records give subject: RoleMaint
// when an active M or m names them, else RoleModerator. The lead covers the
// subject in that role (LeadCovers), and the recovery names the add of
// that role (CommandCover).
func AssignedRole(a *Announcement, subject string) byte {
	if a != nil {
		for _, r := range a.Roles {
			if r.Subject == subject && r.Letter != RoleModerator && r.Active() {
				return RoleMaint
			}
		}
	}
	return RoleModerator
}

// CommandCover is the lead's add that retains subject in role through the
// lead roster: --add-moderator for a moderator assignment, --add-maintainer
// otherwise. Suggesting --add-maintainer for a moderator would invite them
// as a maintainer instead.
func CommandCover(role byte, subject string) suggest.Command {
	if role == RoleModerator {
		return CommandAddModerator(subject)
	}
	return CommandAddMaintainer(subject)
}
