package preflight

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// Input is everything one mutation preflight reads. It is all data: the
// command gathers it (relays, checkout, signer, clock) and preflight decides.
type Input struct {
	Author   string           // the signer's 64-hex pubkey
	Selected graph.Coordinate // the checkout's selected coordinate
	// Events are every verified same-identifier kind 30617 and 30618 event
	// and every relevant kind 5 deletion discovery returned.
	Events []*nostr.Event
	Now    int64 // Unix seconds: the boundary every new role interval uses
	Intent Intent
	// LocalRefs is the checkout's complete ref map (gitstate.LocalRefs shape),
	// nil outside a checkout.
	LocalRefs map[string]string
	// SelectState picks the resolved kind 30618 state for a resolution (the
	// command's own state selection, so preview and read agree); nil when the
	// caller has no state selection, which makes every state nil.
	SelectState func(events []*nostr.Event, r *graph.Resolution) *ResolvedState
}

// Plan is a previewed mutation the command may sign: the replacement
// announcement, both resolutions and their comparison.
type Plan struct {
	Intent   Intent
	Author   string
	Selected graph.Coordinate
	// Current is the author's latest announcement (nil when they have none).
	Current *nostr.Event
	// Tags is the replacement announcement's tags; nil when the intent needs
	// no announcement change (a follow-lead that only switches the checkout).
	Tags      nostr.Tags
	Content   string
	CreatedAt int64
	Changes   []RoleChange
	Before    *graph.Resolution
	After     *graph.Resolution
	Sim       Simulation
	State     StateComparison
	// Fingerprint identifies every announcement, state and deletion event the
	// preview used; the command re-reads and compares before signing.
	Fingerprint map[string]string
	// SwitchTo is the coordinate follow-lead anchors the checkout at (nil: no switch).
	SwitchTo *graph.Coordinate
	// Guidance is what to tell the user (and others) after success: each
	// command once (advice sharing it is grouped, see GuidanceText), no
	// line twice.
	Guidance []suggest.Guidance
}

func sameHistory(a, b historyRecord) bool {
	return a.letter == b.letter && a.subject == b.subject && a.invitation == b.invitation && slices.Equal(a.starts, b.starts)
}

// Event returns the unsigned replacement announcement (nil when Tags is nil).
func (p *Plan) Event() *nostr.Event {
	if p.Tags == nil {
		return nil
	}
	return &nostr.Event{Kind: graph.KindAnnouncement, PubKey: p.Author, CreatedAt: nostr.Timestamp(p.CreatedAt),
		Tags: copyTags(p.Tags), Content: p.Content}
}

// resolveAs resolves events from the checkout's coordinate as the author
// sees them (health and pending acknowledgements are viewer-relative).
func resolveAs(in Input, events []*nostr.Event) *graph.Resolution {
	return graph.Resolve(events, in.Selected, in.Now, graph.Options{Viewer: in.Author})
}

// adopt takes the draft as the plan's replacement, with the recomputed
// projection and a created_at after the current announcement's; a
// replacement identical to the current announcement is no change (nil Tags).
func (p *Plan) adopt(d *draft, now int64) {
	d.writeRoleProjection()
	p.Tags, p.Changes = d.tags, d.changes
	p.CreatedAt = now
	if p.Current == nil {
		return
	}
	p.Content = p.Current.Content
	if int64(p.Current.CreatedAt) >= p.CreatedAt {
		p.CreatedAt = int64(p.Current.CreatedAt) + 1
	}
	if slices.EqualFunc(p.Tags, p.Current.Tags, slices.Equal) {
		p.Tags, p.Changes = nil, nil
	}
}

// syncFollowLead rebuilds a follow-lead replacement from the post-change
// history: the copy itself can move an effective start graph derives from
// listings, so it repeats (at most three times) until the history is
// stable and a second follow-lead has nothing left to change. It returns
// the final after-events and after-view; v.history ends as the history the
// last replacement copied.
func syncFollowLead(v, av *view, in Input, p *Plan, afterEvents []*nostr.Event) ([]*nostr.Event, *view) {
	for i := 0; i < 3; i++ {
		next := av.history
		if slices.EqualFunc(next, v.history, sameHistory) {
			break
		}
		v2 := *v
		v2.history = next
		d2, r2 := build(&v2, in, p)
		if r2 != nil || d2 == nil {
			break
		}
		d2.writeRoleProjection()
		p.Tags, p.Changes = d2.tags, d2.changes
		afterEvents = withReplacement(in.Events, p)
		p.After = resolveAs(in, afterEvents)
		av = fromResolution(p.After, in.Author)
		v.history = next
	}
	return afterEvents, av
}

// withReplacement is events plus the plan's replacement announcement (with
// its id, so graph orders it against the author's current one), the input
// of the after-resolution.
func withReplacement(events []*nostr.Event, p *Plan) []*nostr.Event {
	evt := p.Event()
	evt.ID = evt.GetID()
	return append(slices.Clone(events), evt)
}

// Prepare builds and simulates one intent. Exactly one of the results is non-nil.
func Prepare(in Input) (*Plan, *Refusal) {
	before := resolveAs(in, in.Events)
	v := fromResolution(before, in.Author)
	p := &Plan{Intent: in.Intent, Author: in.Author, Selected: in.Selected, Before: before,
		Current: v.latest[in.Author], Fingerprint: Fingerprint(in.Events)}

	if r := gate(v, in); r != nil {
		return nil, r
	}
	d, r := build(v, in, p)
	if r != nil {
		return nil, r
	}
	afterEvents := in.Events
	if d != nil {
		p.adopt(d, in.Now)
		if p.Tags != nil {
			afterEvents = withReplacement(in.Events, p)
		}
	}
	p.After = resolveAs(in, afterEvents)
	av := fromResolution(p.After, in.Author)
	if in.Intent.Action == ActFollowLead && p.Tags != nil {
		afterEvents, av = syncFollowLead(v, av, in, p, afterEvents)
	}
	p.Sim = simulate(v, av, before, p.After, in)
	if r := classify(v, p, in); r != nil {
		return nil, r
	}
	if r := identityGate(v, p, in); r != nil {
		return nil, r
	}
	if r := followLeadSwitch(v, p, in, afterEvents); r != nil {
		return nil, r
	}
	var sr *Refusal
	p.State, sr = CompareState(stateInput(in, before, p.After, afterEvents, v))
	switch {
	case sr == nil:
	case sr.Code == "state-conflict":
		return nil, forceStateConflict(sr, in.Intent)
	case sr.Code == "force-not-applicable":
		return nil, sr.run(withoutForce(in.Intent).Suggest())
	default:
		return nil, sr
	}
	if p.Tags == nil && p.SwitchTo == nil {
		return nil, nothingToDo(in.Intent)
	}
	p.Guidance = mergeGuidance(guidance(v, p, in))
	return p, nil
}
