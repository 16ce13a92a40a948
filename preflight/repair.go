package preflight

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// RepairedTags are the tags of current with the role records lost
// restored: every tag of current kept, byte for byte and in place, and each
// of lost (the complete version's records current has no record of, as
// graph.LostRoleRecords returns them) added after current's last role
// record, or at the end when it has none. The `maintainers` projection is
// recomputed when the replacement is adopted (Plan.adopt); no role record
// gains a boundary, and no timestamp is invented.
func RepairedTags(current nostr.Tags, lost []nostr.Tag) nostr.Tags {
	out := copyTags(current)
	at := len(out)
	for i, t := range out {
		if len(t) > 0 && graph.IsRoleLetter(t[0]) {
			at = i + 1
		}
	}
	return slices.Insert(out, at, copyTags(lost)...)
}

// lastCompleteOf is the newest of the author's last complete versions of
// the identifier's announcement among complete.
func lastCompleteOf(complete []*nostr.Event, author, identifier string) *nostr.Event {
	var best *nostr.Event
	for _, e := range complete {
		if e != nil && e.PubKey == author && e.Kind == graph.KindAnnouncement && e.Tags.GetD() == identifier &&
			(best == nil || graph.Newer(e, best)) {
			best = e
		}
	}
	return best
}

// buildRepair restores the role records the author's current announcement
// lost (graph.LostRoleRecords against the last complete version this
// machine verified). Only the signer's own announcement is repaired.
func buildRepair(d *draft, in Input, current *nostr.Event) *Refusal {
	complete := lastCompleteOf(in.LastComplete, in.Author, in.Selected.Identifier)
	lost := graph.LostRoleRecords(complete, current)
	if lost == nil {
		msg := "this machine has verified no earlier version of your announcement with role records that the current one dropped"
		if complete != nil {
			msg = fmt.Sprintf("your announcement %s has not dropped the role records of your earlier version %s: it carries as many, or its `maintainers` tag no longer lists the people whose records are gone (a deliberate change)", current.ID, complete.ID)
		}
		return refuse("nothing-to-repair", msg,
			"roster repo health reports a republish that dropped role records, when this machine kept the version before it").
			run(suggest.Roster("repo", "health").Because("see the repository's findings"))
	}
	d.tags = RepairedTags(d.tags, lost)
	for _, t := range lost {
		c := RoleChange{Letter: t[0], Action: "restore", After: slices.Clone(t)}
		if len(t) >= 2 {
			c.Subject = t[1]
		}
		d.changes = append(d.changes, c)
	}
	return nil
}

// statusChange is one person whose confirmed, invited or moderator status
// a repair would change ("" is no status).
type statusChange struct {
	Pubkey          string `json:"pubkey"`
	MaintainerFrom  string `json:"maintainer_before"`
	MaintainerTo    string `json:"maintainer_after"`
	ModeratorFrom   string `json:"moderator_before"`
	ModeratorTo     string `json:"moderator_after"`
	maintainerGains bool
	moderatorGains  bool
}

func statusIn(p string, confirmed, invited []string) string {
	switch {
	case slices.Contains(confirmed, p):
		return graph.StatusConfirmed
	case slices.Contains(invited, p):
		return graph.StatusInvited
	}
	return ""
}

func rank(status string) int {
	switch status {
	case graph.StatusConfirmed:
		return 2
	case graph.StatusInvited:
		return 1
	}
	return 0
}

// statusChanges compares every person's maintainer and moderator status
// between two views, sorted by pubkey.
func statusChanges(bv, av *view) []statusChange {
	var people []string
	for _, l := range [][]string{bv.confirmed, bv.invited, bv.modConfirm, bv.modInvited, av.confirmed, av.invited, av.modConfirm, av.modInvited} {
		people = append(people, l...)
	}
	slices.Sort(people)
	people = slices.Compact(people)
	var out []statusChange
	for _, p := range people {
		c := statusChange{Pubkey: p,
			MaintainerFrom: statusIn(p, bv.confirmed, bv.invited), MaintainerTo: statusIn(p, av.confirmed, av.invited),
			ModeratorFrom: statusIn(p, bv.modConfirm, bv.modInvited), ModeratorTo: statusIn(p, av.modConfirm, av.modInvited)}
		if c.MaintainerFrom == c.MaintainerTo && c.ModeratorFrom == c.ModeratorTo {
			continue
		}
		c.maintainerGains = rank(c.MaintainerTo) > rank(c.MaintainerFrom)
		c.moderatorGains = rank(c.ModeratorTo) > rank(c.ModeratorFrom)
		out = append(out, c)
	}
	return out
}

func statusWords(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// repairStatusRefusal: a repair publishes only when it changes nobody's
// confirmed, invited or moderator status relative to the current
// resolution; otherwise it is refused, naming each person whose status
// would change, with the one-at-a-time `repo edit` commands that make each
// change deliberately.
func repairStatusRefusal(bv, av *view) *Refusal {
	changes := statusChanges(bv, av)
	if len(changes) == 0 {
		return nil
	}
	lines := []any{"restoring your announcement's role records would change who maintains or moderates the repository as it resolves now:"}
	var cmds []suggest.Command
	var details []map[string]string
	for _, c := range changes {
		var what []string
		if c.MaintainerFrom != c.MaintainerTo {
			what = append(what, "maintainer "+statusWords(c.MaintainerFrom)+" -> "+statusWords(c.MaintainerTo))
			act := ActRemove
			if c.maintainerGains {
				act = ActAdd
			}
			cmds = append(cmds, Intent{Action: act, Subject: c.Pubkey}.Suggest())
		}
		if c.ModeratorFrom != c.ModeratorTo {
			what = append(what, "moderator "+statusWords(c.ModeratorFrom)+" -> "+statusWords(c.ModeratorTo))
			act := ActRemoveModerator
			if c.moderatorGains {
				act = ActAddModerator
			}
			cmds = append(cmds, Intent{Action: act, Subject: c.Pubkey}.Suggest())
		}
		lines = append(lines, suggest.Sayf("  %s: %s", suggest.Who(npub(c.Pubkey)), join(what, ", ")))
		details = append(details, map[string]string{"npub": npub(c.Pubkey),
			"maintainer_before": c.MaintainerFrom, "maintainer_after": c.MaintainerTo,
			"moderator_before": c.ModeratorFrom, "moderator_after": c.ModeratorTo})
	}
	lines = append(lines, "nothing was published; make each change deliberately, one at a time, with its own repo edit")
	return refuse("repair-changes-status", lines...).with("changes", details).run(cmds...)
}
