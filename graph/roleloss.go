package graph

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/suggest"
)

// CodeRoleRecordsDropped is the health finding of an announcement
// republished without the role records its author's previous version
// carried (a client that rebuilds kind 30617 from its own fields and keeps
// no M, m or o tags).
const CodeRoleRecordsDropped = "role-records-dropped"

// CommandRepair restores the role records of the signer's last complete
// announcement onto the current one.
func CommandRepair() suggest.Command { return suggest.Roster("repo", "repair") }

// RoleLoss is one author's announcement that lost role records: Current
// carries fewer M, m and o tags than Complete, the last version of the same
// address this machine verified with more of them, and its `maintainers` tag
// still lists a person whose record only Complete has.
type RoleLoss struct {
	Author   string
	Current  *nostr.Event
	Complete *nostr.Event
	// Lost are Complete's role tags for a (letter, subject) Current has no
	// record of, in Complete's tag order.
	Lost []nostr.Tag
}

// CountRoleRecords counts an announcement's M, m and o tags, valid or not.
func CountRoleRecords(evt *nostr.Event) int {
	n := 0
	for _, t := range evt.Tags {
		if len(t) > 0 && IsRoleLetter(t[0]) {
			n++
		}
	}
	return n
}

// roleKey is a role record's (letter, subject): one record per letter and
// subject is what an author publishes.
func roleKey(t nostr.Tag) string {
	if len(t) < 2 {
		return t[0] + "\x00"
	}
	return t[0] + "\x00" + t[1]
}

// LostRoleRecords compares the current version of an announcement with an
// earlier complete one of the same address. It returns the complete
// version's role tags the current one has no record for (by letter and
// subject), or nil when the current version is no such damage: it is not a
// later version of the same address, it carries as many role records, or
// its `maintainers` tag lists nobody whose record it lost (a deliberate
// removal drops the person from `maintainers` too; a client that does not
// keep role records leaves them listed).
func LostRoleRecords(complete, current *nostr.Event) []nostr.Tag {
	if complete == nil || current == nil || complete.ID == current.ID || complete.PubKey != current.PubKey ||
		complete.Kind != KindAnnouncement || current.Kind != KindAnnouncement ||
		complete.Tags.GetD() != current.Tags.GetD() || !Newer(current, complete) {
		return nil
	}
	if CountRoleRecords(current) >= CountRoleRecords(complete) {
		return nil
	}
	have := map[string]bool{}
	for _, t := range current.Tags {
		if len(t) > 0 && IsRoleLetter(t[0]) {
			have[roleKey(t)] = true
		}
	}
	var lost []nostr.Tag
	lostSubjects := map[string]bool{}
	for _, t := range complete.Tags {
		if len(t) > 0 && IsRoleLetter(t[0]) && !have[roleKey(t)] {
			have[roleKey(t)] = true // one copy per (letter, subject)
			lost = append(lost, t)
			if len(t) >= 2 {
				lostSubjects[t[1]] = true
			}
		}
	}
	listed := false
	for _, t := range current.Tags {
		if len(t) > 0 && t[0] == "maintainers" {
			for _, v := range t[1:] {
				if isLowerHex64(v) && lostSubjects[v] {
					listed = true
				}
			}
		}
	}
	if !listed {
		return nil
	}
	return lost
}

// RoleLosses finds, among complete (the last complete versions this
// machine keeps, any authors), the announcements of current or former
// maintainers and moderators of r whose current version (their latest in
// events) lost role records (LostRoleRecords). A former maintainer is one
// with history in r, or one confirmed or invited when r's events are
// resolved with each complete version in place of the damaged one: the
// damage itself may have removed them. Sorted by author.
func RoleLosses(r *Resolution, events, complete []*nostr.Event) []RoleLoss {
	if r == nil || len(complete) == 0 {
		return nil
	}
	id := r.Selected.Identifier
	latest := map[string]*nostr.Event{}
	for _, e := range events {
		if e.Kind == KindAnnouncement && e.Tags.GetD() == id {
			if cur := latest[e.PubKey]; cur == nil || Newer(e, cur) {
				latest[e.PubKey] = e
			}
		}
	}
	var cands []RoleLoss
	for _, c := range complete {
		if c == nil || c.Tags.GetD() != id {
			continue
		}
		cur := latest[c.PubKey]
		if lost := LostRoleRecords(c, cur); lost != nil {
			cands = append(cands, RoleLoss{Author: c.PubKey, Current: cur, Complete: c, Lost: lost})
		}
	}
	if len(cands) == 0 {
		return nil
	}
	slices.SortFunc(cands, func(a, b RoleLoss) int {
		switch {
		case a.Author < b.Author:
			return -1
		case a.Author > b.Author:
			return 1
		}
		return 0
	})
	cands = slices.CompactFunc(cands, func(a, b RoleLoss) bool { return a.Author == b.Author })
	var undamaged *Resolution
	var out []RoleLoss
	for _, l := range cands {
		if memberOf(r, l.Author) {
			out = append(out, l)
			continue
		}
		if undamaged == nil {
			undamaged = Resolve(Undamaged(events, cands), r.Selected, r.Now, Options{})
		}
		if memberOf(undamaged, l.Author) {
			out = append(out, l)
		}
	}
	return out
}

// Undamaged is events with each loss's current version replaced by its
// complete one: the repository as it resolved before the damage.
func Undamaged(events []*nostr.Event, losses []RoleLoss) []*nostr.Event {
	drop := map[string]bool{}
	out := make([]*nostr.Event, 0, len(events))
	for _, l := range losses {
		drop[l.Current.ID] = true
	}
	for _, e := range events {
		if !drop[e.ID] {
			out = append(out, e)
		}
	}
	for _, l := range losses {
		out = append(out, l.Complete)
	}
	return out
}

// memberOf: a maintainer or moderator of r, confirmed or invited, or one
// with role history in it.
func memberOf(r *Resolution, pubkey string) bool {
	for _, ms := range [][]Member{r.Maintainers, r.Moderators} {
		for _, m := range ms {
			if m.Pubkey == pubkey {
				return true
			}
		}
	}
	for _, h := range r.History {
		if h.Pubkey == pubkey {
			return true
		}
	}
	return false
}

// Finding is the loss as a health finding: an error for its author (who
// can repair it with CommandRepair) and a warning for everyone else.
func (l RoleLoss) Finding(viewer string) Finding {
	sev := SeverityWarning
	if viewer != "" && viewer == l.Author {
		sev = SeverityError
	}
	return Finding{Severity: sev, Code: CodeRoleRecordsDropped, Author: l.Author,
		Message: fmt.Sprintf("%s republished this announcement without its role records, probably with a client that does not keep them: event %s (created at %s) has %d role records where the previous version %s (created at %s) had %d",
			Npub(l.Author), l.Current.ID, HumanTime(int64(l.Current.CreatedAt)), CountRoleRecords(l.Current),
			l.Complete.ID, HumanTime(int64(l.Complete.CreatedAt)), CountRoleRecords(l.Complete)),
		Command: ptr(CommandRepair())}
}
