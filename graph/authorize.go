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
// at, per the authorization summary:
//   - state and merge: only a currently confirmed maintainer (lead or
//     co-maintainer). State eligibility is resolved through the current
//     confirmed component, so at does not matter: confirmation can activate
//     older state, and removal retires a former maintainer's state.
//   - status, label, subject, cover note: a confirmed maintainer or
//     moderator whose effective role covered at — the current role from its
//     effective start, or a closed interval of the resolved history (the
//     spec's past-event filtering). Invitees and outsiders never.
func (r *Resolution) Authorized(pubkey string, action Action, at int64) bool {
	switch action {
	case ActionState, ActionMerge:
		return r.confirmed[pubkey]
	case ActionStatus, ActionLabel, ActionSubject, ActionCoverNote:
		if t, ok := r.effStart[pubkey]; ok && at >= t {
			return true
		}
		if t, ok := r.modStart[pubkey]; ok && at >= t {
			return true
		}
		span, ok := r.historyIndex[pubkey]
		if !ok {
			return false
		}
		for _, e := range r.History[span[0]:span[1]] {
			for _, iv := range e.Intervals {
				if iv.End != EndOpen && iv.covers(at) && r.formerlyHeld(e) {
					return true
				}
			}
		}
	}
	return false
}

// formerlyHeld guards past-event filtering: a closed interval only counts
// when its source is a confirmed maintainer (or the selected maintainer),
// so an outsider's self-written history grants nothing.
func (r *Resolution) formerlyHeld(e HistoryEntry) bool {
	return r.confirmed[e.Source] || e.Source == r.SelectedMaintainer && e.Source != e.Pubkey
}

// AuthorizedNow is Authorized at the resolution's own time.
func (r *Resolution) AuthorizedNow(pubkey string, action Action) bool {
	return r.Authorized(pubkey, action, r.Now)
}
