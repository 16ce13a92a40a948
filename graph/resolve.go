package graph

import (
	"sort"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/suggest"
)

// Options tune presentation-relative parts of a resolution.
type Options struct {
	// Viewer is the signed-in user's 64-hex pubkey, or "". Health findings
	// are errors for the affected signer and warnings for everyone else.
	Viewer string
	// DepartureEstimates maps a pubkey whose departure the caller has
	// established without a signed boundary (no numeric self-end, no
	// deletion) to the earliest well-supported observation of their
	// disappearance. History uses it as an "estimated" end, weaker than
	// both signed kinds; a missing fetch from one relay is not such
	// evidence, so graph never invents one.
	DepartureEstimates map[string]int64
}

// Member is a maintainer or moderator with their status in the component.
type Member struct {
	Pubkey string `json:"pubkey"`
	Status string `json:"status"` // confirmed | invited
}

// Member statuses.
const (
	StatusConfirmed = "confirmed"
	StatusInvited   = "invited"
)

// PendingAck is a history transition an announcement author has not
// recorded yet. The lead records it with --acknowledge-maintainer-change;
// other co-maintainers with follow-lead.
type PendingAck struct {
	Author     string          `json:"author"` // whose announcement lacks the transition
	Pubkey     string          `json:"pubkey"` // whose role changed
	Transition string          `json:"transition"`
	Time       int64           `json:"time"`
	Command    suggest.Command `json:"command"`
	// Moderator marks a moderator (o) interval's transition, which is no
	// change of maintainership.
	Moderator bool `json:"moderator,omitempty"`
}

// Phrase says what the transition was, for messages.
func (p PendingAck) Phrase() string {
	switch {
	case p.Moderator && p.Transition == TransitionEnd:
		return "stopped being a moderator"
	case p.Moderator:
		return "became a moderator"
	case p.Transition == TransitionEnd:
		return "left maintainership"
	}
	return "accepted maintainership"
}

// Transitions of a pending acknowledgement.
const (
	TransitionStart = "start"
	TransitionEnd   = "end"
)

// Lifecycle is the selected coordinate's presentation status. It never
// grants authority.
type Lifecycle struct {
	Status string `json:"status"` // active | archived | deleted | restarted
	Actor  string `json:"actor,omitempty"`
	Time   int64  `json:"time,omitempty"`
}

// Lifecycle statuses.
const (
	LifecycleActive    = "active"
	LifecycleArchived  = "archived"
	LifecycleDeleted   = "deleted"
	LifecycleRestarted = "restarted"
)

// Resolution answers who maintains the repository at the selected
// coordinate, who leads it, and what is wrong with it.
type Resolution struct {
	Now                     int64                    `json:"now"` // the time this resolution describes
	Selected                Coordinate               `json:"selected"`
	SelectedMaintainer      string                   `json:"selected_maintainer"`
	Lead                    string                   `json:"lead_maintainer"` // "" when none
	LeadSource              LeadSource               `json:"lead_source"`
	LeadPath                []string                 `json:"lead_path"`
	Maintainers             []Member                 `json:"maintainers"`
	Moderators              []Member                 `json:"moderators"`
	PendingAcknowledgements []PendingAck             `json:"pending_history_acknowledgements"`
	Health                  []Finding                `json:"health"`
	RecommendedCoordinate   *Coordinate              `json:"recommended_coordinate"`
	FollowLead              bool                     `json:"follow_lead"`
	Lifecycle               Lifecycle                `json:"lifecycle"`
	History                 []HistoryEntry           `json:"history"`
	Component               []string                 `json:"component"` // confirmed maintainers, sorted
	Announcements           map[string]*Announcement `json:"-"`         // latest per author used
	// LastSnapshot is the selected author's last observed announcement,
	// kept readable for archived or deleted presentation even when it is
	// not eligible for current resolution.
	LastSnapshot *Announcement `json:"-"`
	// HandoverMissing names, when the walk is pending because a handover
	// has not established the target's complete active roster, each person
	// the handing-over announcement holds as current (an open defer copy)
	// that the target's roster neither lists nor ends. Sorted; nil
	// otherwise. Preflight's lead-transfer refusal names the same people.
	HandoverMissing []string `json:"-"`

	confirmed    map[string]bool
	moderators   map[string]bool
	effStart     map[string]int64 // current effective start of confirmed maintainers
	modStart     map[string]int64
	historyIndex map[string][2]int // pubkey -> range in History
	deleted      map[string]Deletion
	lastSeen     map[string]*Announcement
}

// Resolve turns everything discovered for one identifier (kind 30617
// announcements from any author and kind 5 deletions whose signatures the
// caller verified) into the resolution rooted at the selected coordinate.
// now is the caller's clock (Resolve reads none); it is recorded as
// Resolution.Now and is the default time of AuthorizedNow. Membership
// itself follows the latest signed statements and the parity rule, not
// the clock, so two clients with skewed clocks agree on who is confirmed.
func Resolve(events []*nostr.Event, selected Coordinate, now int64, opts Options) *Resolution {
	s := buildSnapshot(events, selected.Identifier)
	s.estimates = opts.DepartureEstimates
	pop := newPopulation(s.anns)
	parts := pop.parts
	sel := selected.Pubkey
	lr, confirmed, assigned := resolveLead(pop, s, sel)

	r := &Resolution{
		Now:                now,
		Selected:           selected,
		SelectedMaintainer: sel,
		Lead:               lr.lead,
		LeadSource:         lr.source,
		LeadPath:           lr.path,
		Announcements:      s.anns,
		LastSnapshot:       s.lastSeen[sel],
		HandoverMissing:    lr.missing,
		deleted:            s.deleted,
		lastSeen:           s.lastSeen,
		confirmed:          confirmed,
	}
	comp := componentOf(lr.seed, confirmed, assigned)
	r.Component = comp.Confirmed
	r.Maintainers = members(comp.Confirmed, comp.Invited)
	r.effStart = effectiveStarts(pop, lr.seed, lr.source == LeadExplicit)
	r.Moderators, r.moderators, r.modStart = moderatorsOf(parts, lr, confirmed)
	if lr.source == LeadExplicit && lr.lead != sel {
		c := NewCoordinate(lr.lead, selected.Identifier)
		r.RecommendedCoordinate = &c
		r.FollowLead = true
	}
	r.History = resolveHistory(pop, s, sel, lr)
	r.historyIndex = indexHistory(r.History)
	r.Lifecycle = lifecycleOf(s, sel)
	r.PendingAcknowledgements = pendingAcks(parts, s, lr, confirmed, r.moderators, r.effStart, opts.Viewer)
	r.Health = healthOf(&healthInput{
		parts: parts, s: s, lr: lr, confirmed: confirmed, assigned: assigned,
		selected: sel, viewer: opts.Viewer, identifier: selected.Identifier,
		pending: r.PendingAcknowledgements,
	})
	return r
}

// members merges the two sorted, disjoint lists into one sorted by pubkey.
func members(confirmed, invited []string) []Member {
	out := make([]Member, 0, len(confirmed)+len(invited))
	i, j := 0, 0
	for i < len(confirmed) || j < len(invited) {
		if j == len(invited) || i < len(confirmed) && confirmed[i] < invited[j] {
			out = append(out, Member{Pubkey: confirmed[i], Status: StatusConfirmed})
			i++
		} else {
			out = append(out, Member{Pubkey: invited[j], Status: StatusInvited})
			j++
		}
	}
	return out
}

// Confirmed reports whether pubkey is a confirmed maintainer now.
func (r *Resolution) Confirmed(pubkey string) bool { return r.confirmed[pubkey] }

// ConfirmedModerator reports whether pubkey is a confirmed moderator now.
func (r *Resolution) ConfirmedModerator(pubkey string) bool { return r.moderators[pubkey] }

// EffectiveStart is when a confirmed maintainer's current role became
// effective (later of assignment and acknowledgement; 0 = unknown start).
func (r *Resolution) EffectiveStart(pubkey string) (int64, bool) {
	t, ok := r.effStart[pubkey]
	return t, ok
}

// effectiveStarts: the seed's own active self-role start (0 if untimed or
// absent); every other confirmed maintainer's start is the later of their
// assignment and their own acknowledgement (active self-role, else earliest
// listing back).
//
// The assignment is the roster coordinator's: in an explicit view, the
// lead's active record when the lead lists the subject ("the lead's active
// roster seeds a reciprocal fixpoint"; the lead acknowledges a start "not
// recorded in its active assignment"). Only a subject the lead does not
// list (retained by a co-maintainer's third-party edge) and every subject
// of a leadless view take the earliest active listing by a confirmed
// maintainer. So a co-maintainer's old lead pointer, which their
// follow-lead re-targets, never moves anyone's effective start. Linear in
// the number of listings; reads the flags of the last fixpoint.
func effectiveStarts(pop *population, seed string, explicitLead bool) map[string]int64 {
	var confirmed []*participant
	for _, p := range pop.all {
		p.effAssign, p.leadListed = -1, false
		if p.confirmed {
			confirmed = append(confirmed, p)
		}
	}
	if lead := pop.parts[seed]; explicitLead && lead != nil {
		for i, s := range lead.out {
			if s.confirmed && s != lead {
				s.effAssign, s.leadListed = lead.outStart[i], true
			}
		}
	}
	for _, x := range confirmed {
		for i, s := range x.out {
			if s.confirmed && s != x && !s.leadListed && (s.effAssign < 0 || x.outStart[i] < s.effAssign) {
				s.effAssign = x.outStart[i]
			}
		}
	}
	out := make(map[string]int64, len(confirmed))
	for _, p := range confirmed {
		ack := p.selfStart
		if p.key == seed {
			out[p.key] = ack
			continue
		}
		if !p.hasSelf {
			ack = -1
			for i, y := range p.out {
				if y != p && y.confirmed && (ack < 0 || p.outStart[i] < ack) {
					ack = p.outStart[i]
				}
			}
		}
		out[p.key] = max(p.effAssign, ack, 0)
	}
	return out
}

// selfStart is when the author's current continuous self-role began: the
// start of their active self M/m, followed back through any self-role
// interval that ended exactly at that start (the same-boundary m->M
// promotion is one continuous role). Untimed counts as 0.
func selfStart(a *Announcement) (int64, bool) {
	best, ok := int64(0), false
	for _, r := range a.Roles {
		if r.Subject == a.Author && r.Letter != RoleModerator && r.Active() && (!ok || r.LastStart() < best) {
			best, ok = r.LastStart(), true
		}
	}
	for ok && best > 0 {
		prev, found := selfIntervalEndingAt(a, best)
		if !found {
			break
		}
		best = prev
	}
	return best, ok
}

// selfIntervalEndingAt finds a valid self M/m interval with a signed end at
// t and an earlier start.
func selfIntervalEndingAt(a *Announcement, t int64) (int64, bool) {
	for _, r := range a.Roles {
		if r.Subject != a.Author || r.Letter == RoleModerator || !r.Valid {
			continue
		}
		for i := 0; i+1 < len(r.Boundaries); i += 2 {
			if r.Boundaries[i+1] == t && r.Boundaries[i] < t {
				return r.Boundaries[i], true
			}
		}
	}
	return 0, false
}

// moderatorsOf: in a lead-shaped view the lead's active o assigns; in every
// other view any confirmed maintainer's active o does. The subject confirms
// with an active self-o. Moderators never extend maintainer authority.
func moderatorsOf(parts map[string]*participant, lr leadResult, confirmed map[string]bool) ([]Member, map[string]bool, map[string]int64) {
	assigners := []string{}
	if lr.source == LeadExplicit {
		assigners = append(assigners, lr.lead)
	} else {
		for p := range confirmed {
			assigners = append(assigners, p)
		}
	}
	assignStart := map[string]int64{}
	for _, x := range assigners {
		for _, rec := range parts[x].ann.Roles {
			if rec.Letter == RoleModerator && rec.Active() && rec.Subject != x {
				if t, ok := assignStart[rec.Subject]; !ok || rec.LastStart() < t {
					assignStart[rec.Subject] = rec.LastStart()
				}
			}
		}
	}
	var out []Member
	conf, starts := map[string]bool{}, map[string]int64{}
	for s, at := range assignStart {
		status := StatusInvited
		if p := parts[s]; p != nil && !p.blocked {
			for _, rec := range p.ann.Roles {
				if rec.Letter == RoleModerator && rec.Subject == s && rec.Active() {
					status = StatusConfirmed
					conf[s] = true
					starts[s] = max(at, rec.LastStart())
				}
			}
		}
		out = append(out, Member{Pubkey: s, Status: status})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pubkey < out[j].Pubkey })
	if out == nil {
		out = []Member{}
	}
	return out, conf, starts
}
