package preflight

import (
	"slices"

	"github.com/roster-cli/roster/suggest"

	"github.com/roster-cli/roster/graph"
)

// Confirmation classifies what an add does to the named pubkey
// (maintainers.md "Adding a maintainer can join repositories"):
//
//   - "invitation": they do not acknowledge this component; only an
//     invitation is added.
//   - "expected": "Bob already acknowledges the same component, the
//     acknowledgement is not tied to an earlier closed assignment interval"
//     (and nothing else enters; classify refuses the rest).
//   - "standing-acceptance": their active acknowledgement is tied to an
//     earlier closed interval of your assignment: they accepted it, you closed
//     it, and they never recorded the removal by ending their self-role.
//     The spec keeps this a confirmation ("restarting the assignment confirms
//     them immediately without a new candidate event"; "This includes a
//     removed maintainer who has not yet ended their active self-role"), so it
//     is not refused, but it is not the ordinary expected confirmation
//     either: the preview says the old acceptance reinstates them.
type Confirmation struct {
	Kind string `json:"kind"`
	// AcceptedAt is the latest start of the named person's active self-role
	// (0: untimed); ClosedAt the end of your earlier assignment interval it
	// was tied to. Both only for standing-acceptance.
	AcceptedAt int64 `json:"accepted_at,omitempty"`
	ClosedAt   int64 `json:"closed_at,omitempty"`
}

const (
	ConfirmInvitation = "invitation"
	ConfirmExpected   = "expected"
	ConfirmStanding   = "standing-acceptance"
)

// confirmationOf classifies an add of named by author. mine is the author's
// announcement before the change, theirs the named person's latest one.
func confirmationOf(s Simulation, named string, mine, theirs *graph.Announcement) *Confirmation {
	if !slices.Contains(s.NewlyConfirmed, named) {
		return &Confirmation{Kind: ConfirmInvitation}
	}
	if mine == nil || theirs == nil {
		return &Confirmation{Kind: ConfirmExpected}
	}
	closedAt, closed := int64(0), false
	for _, r := range mine.Roles {
		if r.Subject == named && r.Letter != graph.RoleModerator && r.NumericallyEnded() {
			if end := r.Boundaries[len(r.Boundaries)-1]; end >= closedAt {
				closedAt, closed = end, true
			}
		}
	}
	if !closed {
		return &Confirmation{Kind: ConfirmExpected}
	}
	acceptedAt, accepting := int64(-1), false
	for _, r := range theirs.Roles {
		if r.Subject == named && r.Letter != graph.RoleModerator && r.Active() && r.LastStart() > acceptedAt {
			acceptedAt, accepting = r.LastStart(), true
		}
	}
	if !accepting || acceptedAt > closedAt {
		return &Confirmation{Kind: ConfirmExpected}
	}
	return &Confirmation{Kind: ConfirmStanding, AcceptedAt: acceptedAt, ClosedAt: closedAt}
}

// standingAcceptanceNote is the preview's and guidance's sentence for it.
func standingAcceptanceNote(named string, c *Confirmation) suggest.Block {
	accepted := "an untimed acceptance"
	if c.AcceptedAt > 0 {
		accepted = "their acceptance from " + graph.HumanTime(c.AcceptedAt)
	}
	return say("%s is confirmed again by %s of your earlier assignment, which you closed at %s; they never recorded that removal, so no new acceptance is needed",
		who(named), accepted, graph.HumanTime(c.ClosedAt))
}
