package report

import (
	"time"

	"github.com/roster-cli/roster/eventcheck"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// CheckEventSchema is the JSON schema printed by `roster repo check-event --json`.
const CheckEventSchema = "roster.check-event/v1"

// CheckEvent is roster.check-event/v1 (docs/json.md).
type CheckEvent struct {
	Schema     string     `json:"schema"`
	Event      EventRef   `json:"event"`
	Action     string     `json:"action"`
	Repository Coordinate `json:"repository"`
	Target     *EventRef  `json:"target"`
	Authorized bool       `json:"authorized"`
	// By is "role" (a maintainer or moderator role covered created_at) or
	// "target-author" (the author wrote the issue, patch or pull request);
	// null when not authorized.
	By *string `json:"by"`
	// Role is "maintainer" or "moderator" when a role covered created_at.
	Role *string `json:"role"`
	// Current: the author's current role covered it (Interval is open from
	// its effective start); false: a closed interval of the resolved history.
	Current  bool      `json:"current"`
	Interval *Interval `json:"interval"`
	// HistorySource is the author of the history record that supplied a
	// closed Interval.
	HistorySource *string `json:"history_source"`
	// Reason is why not (graph's reason codes), null when authorized.
	Reason   *string `json:"reason"`
	Relays   []Relay `json:"relays"`
	Complete bool    `json:"complete"`
	// TimeSource is what the verdict's time rests on: "created_at", the
	// event's own timestamp, which its author asserts.
	TimeSource string `json:"time_source"`
}

// EventRef names one event.
type EventRef struct {
	ID        string `json:"id"`
	Kind      int    `json:"kind"`
	Npub      string `json:"npub"`
	Pubkey    string `json:"pubkey"`
	CreatedAt int64  `json:"created_at"`
	Created   string `json:"created"` // created_at as RFC 3339, UTC
}

// Interval is a role interval: Start (0 with StartUnknown: the start is
// unknown), End ("open", "signed", "deletion", "estimated") and EndTime.
type Interval struct {
	Start        int64  `json:"start"`
	StartUnknown bool   `json:"start_unknown"`
	End          string `json:"end"`
	EndTime      *int64 `json:"end_time"`
}

// CheckEventOf maps a verdict onto roster.check-event/v1.
func CheckEventOf(v *eventcheck.Verdict) *CheckEvent {
	c := v.Coordinate
	out := &CheckEvent{Schema: CheckEventSchema, Event: eventRef(v.Event.ID, v.Event.Kind, v.Event.PubKey, int64(v.Event.CreatedAt)),
		Action: string(v.Action), Authorized: v.Authorized, Current: v.Grant.Current, Relays: []Relay{}, TimeSource: "created_at",
		Repository: Coordinate{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey), Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, nil)}}
	if v.Target != nil {
		t := eventRef(v.Target.ID, v.Target.Kind, v.Target.PubKey, int64(v.Target.CreatedAt))
		out.Target = &t
	}
	switch {
	case v.Grant.Authorized:
		by, role := "role", v.Grant.Role
		out.By, out.Role = &by, &role
	case v.TargetAuthor:
		by := "target-author"
		out.By = &by
	default:
		r := v.Grant.Reason
		out.Reason = &r
	}
	if iv := v.Grant.Interval; iv != nil && v.Grant.Authorized {
		out.Interval = &Interval{Start: iv.Start, StartUnknown: iv.StartUnknown, End: iv.End}
		if iv.End != graph.EndOpen {
			t := iv.EndTime
			out.Interval.EndTime = &t
		}
	}
	if v.Grant.Source != "" {
		s := graph.Npub(v.Grant.Source)
		out.HistorySource = &s
	}
	if v.View != nil {
		out.Complete = v.View.Complete()
		if v.View.Fetch != nil {
			for _, rr := range v.View.Fetch.Relays {
				out.Relays = append(out.Relays, Relay{URL: rr.URL, Status: rr.Status, Events: rr.Events, Reason: rr.Reason, Dropped: rr.Dropped, Forged: rr.Forged})
			}
		}
	}
	return out
}

func eventRef(id string, kind int, pubkey string, at int64) EventRef {
	return EventRef{ID: id, Kind: kind, Npub: graph.Npub(pubkey), Pubkey: pubkey, CreatedAt: at, Created: time.Unix(at, 0).UTC().Format(time.RFC3339)}
}
