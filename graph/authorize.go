package graph

// Action is a repository-role-scoped action from the spec's authorization
// summary.
type Action string

const (
	// ActionState publishes kind 30618 repository state.
	ActionState Action = "state"
	// ActionMerge creates or pushes a merge commit.
	ActionMerge Action = "merge"
	// ActionStatus publishes a status (including a merge status for a merge
	// already in authorized state), label, subject or cover note.
	ActionStatus    Action = "status"
	ActionLabel     Action = "label"
	ActionSubject   Action = "subject"
	ActionCoverNote Action = "cover-note"
)

// Authorized answers whether pubkey may take action for an event created at
// at, per the authorization summary. A pending or conflicting view
// authorizes nothing. Otherwise:
//   - state and merge: only a currently confirmed maintainer (lead or
//     co-maintainer). State eligibility is resolved through the current
//     confirmed component, so at does not matter: confirmation can activate
//     older state, and removal retires a former maintainer's state.
//   - status, label, subject, cover note: a confirmed maintainer or
//     moderator whose effective role covered at — the current role from its
//     effective start, or a closed interval of the resolved history (the
//     spec's past-event filtering). Invitees and outsiders never.
func (r *Resolution) Authorized(pubkey string, action Action, at int64) bool {
	return r.GrantAt(pubkey, action, at).Authorized
}

// formerlyHeld guards past-event filtering: a closed interval only counts
// when its source is a confirmed maintainer (or the selected maintainer),
// so an outsider's self-written history grants nothing.
func (r *Resolution) formerlyHeld(e HistoryEntry) bool {
	return r.confirmed[e.Source] || e.Source == r.SelectedMaintainer && e.Source != e.Pubkey
}

// acknowledgedAt guards past-event filtering with the first design
// principle: "A pubkey cannot make another person's same-identifier events
// authoritative merely by listing them." A closed record is such a listing
// (a withdrawn invitation is closed, [T1, T5], exactly like a former
// member's interval, and "An invitation is not effective maintainership"),
// so it counts only when the subject's own announcement acknowledged the
// repository at that time: a valid M/m (maintainer entries) or self-o
// (moderator entries) record whose own signed intervals cover at, or legacy
// listings (untimed, covering all prior history). A deleted announcement
// still served is read the same way; one the relays no longer serve leaves
// the signed deletion as the only evidence that it existed, and the
// replicated interval stands. A subject never seen at all has no evidence
// of acceptance.
func (r *Resolution) acknowledgedAt(e HistoryEntry, at int64) bool {
	_, ok := r.acknowledgedSince(e, at)
	return ok
}

// acknowledgedSince is acknowledgedAt with when that acknowledgement
// began: the start of the subject's own record interval that covers at (0
// for legacy listings or a deleted announcement, which carry no time). A
// role is effective from the later of the assignment and the
// acknowledgement, so a closed interval's effective start is the later of
// its own start and this one.
func (r *Resolution) acknowledgedSince(e HistoryEntry, at int64) (int64, bool) {
	a := r.Announcements[e.Pubkey]
	if a == nil {
		a = r.lastSeen[e.Pubkey]
	}
	if a == nil {
		_, gone := r.deleted[e.Pubkey]
		return 0, gone
	}
	if !a.RoleAware() {
		return 0, len(a.LegacyListings()) > 0
	}
	for _, rec := range a.Roles {
		if !rec.Valid {
			continue
		}
		moderator := rec.Letter == RoleModerator
		if moderator != (e.Role == "o") || moderator && rec.Subject != e.Pubkey {
			continue
		}
		for _, iv := range rec.Intervals() {
			if iv.covers(at) {
				return iv.Start, true
			}
		}
	}
	return 0, false
}

// AuthorizedNow is Authorized at the resolution's own time.
func (r *Resolution) AuthorizedNow(pubkey string, action Action) bool {
	return r.Authorized(pubkey, action, r.Now)
}
