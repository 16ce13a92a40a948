package graph

// Grant says why a pubkey was, or was not, authorized for an action at a
// time: the role and the interval that covered it. Authorized is
// GrantAt(...).Authorized; check-event reports the rest.
type Grant struct {
	Authorized bool `json:"authorized"`
	// Role is "maintainer" or "moderator" when Authorized.
	Role string `json:"role,omitempty"`
	// Current: the pubkey's current role covered the time (from Start on,
	// open); otherwise a closed interval of the resolved history did.
	Current bool `json:"current"`
	// Interval is the interval that covered the time (Start, End, EndTime as
	// in the resolved history; a current role is open from its effective start).
	Interval *Interval `json:"interval,omitempty"`
	// Source is the author of the history record that supplied Interval
	// (empty for a current role).
	Source string `json:"source,omitempty"`
	// Reason says why not, when not Authorized.
	Reason string `json:"reason,omitempty"`
}

// Why-not reasons of a Grant.
const (
	ReasonNoAuthority  = "lead-unresolved" // the lead walk is pending or conflicting: nothing is authorized
	ReasonNotConfirmed = "not-confirmed"   // state and merge need a currently confirmed maintainer
	ReasonBeforeStart  = "before-effective-start"
	ReasonNoRole       = "no-role-at-that-time"
	ReasonNotAnAction  = "not-a-role-scoped-action"
)

// GrantAt is Authorized with its explanation (see Authorized for the rules).
func (r *Resolution) GrantAt(pubkey string, action Action, at int64) Grant {
	if r.LeadSource == LeadPending || r.LeadSource == LeadConflict {
		// A failed walk "seeds no authority": not even past-event
		// filtering from the selected maintainer's own records.
		return Grant{Reason: ReasonNoAuthority}
	}
	switch action {
	case ActionState, ActionMerge:
		if r.confirmed[pubkey] {
			return Grant{Authorized: true, Role: "maintainer", Current: true,
				Interval: &Interval{Start: r.effStart[pubkey], StartUnknown: r.effStart[pubkey] == 0, End: EndOpen}}
		}
		return Grant{Reason: ReasonNotConfirmed}
	case ActionStatus, ActionLabel, ActionSubject, ActionCoverNote:
		if t, ok := r.effStart[pubkey]; ok && at >= t {
			return Grant{Authorized: true, Role: "maintainer", Current: true, Interval: &Interval{Start: t, StartUnknown: t == 0, End: EndOpen}}
		}
		if t, ok := r.modStart[pubkey]; ok && at >= t {
			return Grant{Authorized: true, Role: "moderator", Current: true, Interval: &Interval{Start: t, StartUnknown: t == 0, End: EndOpen}}
		}
		if span, ok := r.historyIndex[pubkey]; ok {
			for _, e := range r.History[span[0]:span[1]] {
				for _, iv := range e.Intervals {
					if iv.End == EndOpen || !iv.covers(at) || !r.formerlyHeld(e) {
						continue
					}
					if since, ok := r.acknowledgedSince(e, at); ok {
						role := "maintainer"
						if e.Role == "o" {
							role = "moderator"
						}
						// Effective from the later of the recorded
						// assignment and the subject's acknowledgement.
						iv := iv
						if since > iv.Start {
							iv.Start, iv.StartUnknown = since, false
						}
						return Grant{Authorized: true, Role: role, Interval: &iv, Source: e.Source}
					}
				}
			}
		}
		_, maint := r.effStart[pubkey]
		_, mod := r.modStart[pubkey]
		if maint || mod {
			return Grant{Reason: ReasonBeforeStart}
		}
		return Grant{Reason: ReasonNoRole}
	}
	return Grant{Reason: ReasonNotAnAction}
}
