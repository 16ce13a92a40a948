package preflight

import (
	"math"
	"slices"
	"strconv"

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
	// nil outside a checkout; Tracking the remote-tracking branches of the
	// remotes that stand for the repository's servers (the nostr:// remote
	// and every remote whose URL is an advertised clone URL): a state
	// branch missing locally but tracked at the same OID is aligned.
	LocalRefs map[string]string
	Tracking  []TrackingRef
	// RootCommit is the checkout's root commit along first parents
	// (gitstate.Checkout.RootCommit), "" outside a checkout or when it
	// cannot be read: the earliest unique commit of the runner's side when
	// their announcement carries no `r` (rootWithoutEUC).
	RootCommit string
	// Contained says, for a ref of the state resolved now, whether this
	// checkout's same ref contains that state's commit (it is the same or
	// descends from it); a ref missing is not contained. Only --force
	// reads it (ForceRewinds); nil outside a checkout.
	Contained map[string]bool
	// Actions are the verified role-scoped events and their targets
	// (discovery.View.Actions); ActionsDropped counts those discovery's
	// bounds left out (any makes the comparison impossible).
	Actions        []*nostr.Event
	ActionsDropped int
	// ActionsLeftOut are the ids of the first events left out
	// (discovery.View.ActionsOverLimit), for the refusal to name.
	ActionsLeftOut []string
	// LastComplete are the last complete versions of announcements this
	// machine verified before a version with fewer role records replaced
	// them (discovery.View.LastComplete): what ActRepair restores from.
	LastComplete []*nostr.Event
}

// readState reads a kind 30618 event's default branch and ref map
// (graph.ParseState, the read pipeline's parser); nil for no event or one
// that is not a valid state event, which then supplies no state. Which
// event a resolution selects is graph.SelectState, the read pipeline's
// rule, so preview and read agree.
func (in Input) readState(e *nostr.Event) *ResolvedState {
	if e == nil {
		return nil
	}
	st, err := graph.ParseState(e)
	if err != nil {
		return nil
	}
	return &ResolvedState{EventID: st.EventID, Author: st.Author, Head: st.Head, Refs: st.Refs}
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
	Tags    nostr.Tags
	Content string
	// CreatedAt is the preview's created_at: the preview's clock, at least
	// NotBefore. The event signed is dated at signing time (EventAt).
	CreatedAt int64
	// NotBefore is the earliest created_at the replacement may carry: one
	// second after every event of the author's own coordinate the preview
	// used (each of their announcements, and each deletion addressing it),
	// so the replacement orders after them by time, never by an id tie, and
	// is not covered by an address deletion.
	NotBefore int64
	Changes   []RoleChange
	// Fields are the announcement fields a metadata edit replaces.
	Fields []FieldChange
	// OtherTags are the replacement's tag differences that Changes and
	// Fields do not name (the maintainers projection, a dropped tag).
	OtherTags []TagEdit
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

// Event returns the unsigned replacement announcement as previewed, dated
// CreatedAt (nil when Tags is nil).
func (p *Plan) Event() *nostr.Event { return p.EventAt(p.CreatedAt) }

// EventAt returns the unsigned replacement announcement dated now, the
// signer's clock, or NotBefore when the clock reads earlier (the same
// second as the base, or a clock behind it): a replacement always orders
// strictly after every event of the coordinate the preview used. Nil when
// Tags is nil.
func (p *Plan) EventAt(now int64) *nostr.Event {
	if p.Tags == nil {
		return nil
	}
	return &nostr.Event{Kind: graph.KindAnnouncement, PubKey: p.Author, CreatedAt: nostr.Timestamp(max(now, p.NotBefore)),
		Tags: copyTags(p.Tags), Content: p.Content}
}

// MaxFutureSkew is how far after the clock (Input.Now) a change may date
// the events it publishes: 15 minutes, the bound relays commonly enforce
// (strfry refuses events dated further ahead). A replacement must be dated
// after every event of the coordinate, so a base dated further ahead would
// date ours there too: published, it locks every later edit out (an event
// at int64 max − 1 leaves one second, then none) and most relays refuse it.
const MaxFutureSkew = 15 * 60

// replacementFloor is the earliest created_at a replacement of author's
// coordinate may carry (Plan.NotBefore), and the event that makes any
// replacement impossible: the newest one dated at or after now +
// MaxFutureSkew (the int64 maximum included), which a replacement would
// have to follow (nil when there is none).
func replacementFloor(events []*nostr.Event, author, identifier string, now int64) (int64, *nostr.Event) {
	addr := graph.NewCoordinate(author, identifier).ATag()
	var floor int64
	var blocker *nostr.Event
	for _, e := range events {
		if e.PubKey != author || !ofCoordinate(e, identifier, addr) {
			continue
		}
		if tooFarAhead(int64(e.CreatedAt), now) {
			if blocker == nil || e.CreatedAt > blocker.CreatedAt {
				blocker = e
			}
			continue
		}
		floor = max(floor, int64(e.CreatedAt)+1)
	}
	if blocker != nil {
		floor = math.MaxInt64
	}
	return floor, blocker
}

// tooFarAhead reports whether an event dated at would make a replacement
// be dated at least MaxFutureSkew after now (or after the int64 maximum).
func tooFarAhead(at, now int64) bool {
	return at == math.MaxInt64 || now <= math.MaxInt64-MaxFutureSkew && at+1 > now+MaxFutureSkew
}

// ofCoordinate reports whether e (by the coordinate's author) is an
// announcement with the identifier or a deletion addressing addr.
func ofCoordinate(e *nostr.Event, identifier, addr string) bool {
	switch e.Kind {
	case graph.KindAnnouncement:
		return e.Tags.GetD() == identifier
	case nostr.KindDeletion:
		for _, t := range e.Tags {
			if len(t) >= 2 && t[0] == "a" && t[1] == addr {
				return true
			}
		}
	}
	return false
}

// resolveAs resolves events from the checkout's coordinate as the author
// sees them (health and pending acknowledgements are viewer-relative).
func resolveAs(in Input, events []*nostr.Event) *graph.Resolution {
	return graph.Resolve(events, in.Selected, in.Now, graph.Options{Viewer: in.Author})
}

// adopt takes the draft as the plan's replacement, with the recomputed
// projection and a created_at of now or, when that is not later, NotBefore;
// a replacement identical to the current announcement is no change (nil
// Tags).
func (p *Plan) adopt(d *draft, now int64) {
	if p.Intent.Action != ActMetadata {
		// A metadata edit keeps the maintainers tag's bytes (the gates
		// already refused one that does not match the roles).
		d.writeRoleProjection()
	}
	p.Tags, p.Changes = d.tags, d.changes
	p.CreatedAt = max(now, p.NotBefore)
	if p.Current == nil {
		// A first announcement (accept's) has no tag order to keep:
		// write ngit's, as repo init does.
		p.Tags = graph.InNgitTagOrder(p.Tags)
		return
	}
	p.Content = p.Current.Content
	if sameTagSet(p.Tags, p.Current.Tags) {
		// The same tags, in whatever order: nothing a reader resolves changes.
		p.Tags, p.Changes, p.Fields = nil, nil, nil
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
		var blocker *nostr.Event
		p.NotBefore, blocker = replacementFloor(in.Events, in.Author, in.Selected.Identifier, in.Now)
		p.adopt(d, in.Now)
		if p.Tags != nil && blocker != nil {
			return nil, baseInTheFuture(blocker, in.Intent, in.Now)
		}
		if p.Tags != nil {
			afterEvents = withReplacement(in.Events, p)
		}
	}
	p.After = resolveAs(in, afterEvents)
	av := fromResolution(p.After, in.Author)
	if in.Intent.Action == ActFollowLead && p.Tags != nil {
		afterEvents, av = syncFollowLead(v, av, in, p, afterEvents)
		if p.Current != nil && sameTagSet(p.Tags, p.Current.Tags) {
			p.Tags, p.Changes = nil, nil
			afterEvents = in.Events
			p.After = resolveAs(in, afterEvents)
			av = fromResolution(p.After, in.Author)
		}
	}
	if p.Tags != nil && p.Current != nil {
		p.OtherTags = otherTagEdits(p.Current.Tags, p.Tags, p.Changes, p.Fields)
	}
	p.Sim = simulate(v, av, before, p.After, in)
	if r := classify(v, p, in); r != nil {
		return nil, withJoinComparison(r, in, before, p.After, afterEvents, v, p)
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
		return nil, inviteeStep(forceStateConflict(sr, in.Intent, in.LocalRefs != nil), in)
	case sr.Code == "force-not-applicable":
		return nil, sr.run(withoutForce(in.Intent).Suggest())
	case sr.Code == "force-needs-checkout":
		return nil, sr.run(suggest.Roster("repo", "state", "publish").Because("publish your aligned branches and tags from your checkout"),
			withoutForce(in.Intent).Suggest().Because("once the state is aligned"))
	case sr.Code == "state-change":
		return nil, sr.run(suggest.Roster("repo", "state").Because("see the resolved state"), in.Intent.Suggest().Because("once the state is published"))
	case sr.Code == "state-order-impossible":
		return nil, sr.run(suggest.Roster("repo", "state").Because("see the state events"))
	default:
		return nil, sr
	}
	if p.Tags == nil && p.SwitchTo == nil {
		return nil, nothingToDo(in.Intent)
	}
	if r := p.checkActions(in); r != nil {
		return nil, r
	}
	p.Guidance = mergeGuidance(guidance(v, p, in))
	p.Guidance = append(p.Guidance, thirdPartyGateWarning(v, in)...)
	return p, nil
}

// baseInTheFuture refuses a replacement that cannot order after an event of
// the author's own coordinate without being dated MaxFutureSkew or more
// after the clock: one dated at the int64 maximum (no later created_at
// exists, so under NIP-01 nothing replaces it, and an address deletion at
// that time covers every version) or far ahead of now. Dating ours earlier
// would publish an event that loses, dating it after would lock the next
// edit out the same way (and relays refuse it), and wrapping around would
// date it before 1970.
func baseInTheFuture(e *nostr.Event, in Intent, now int64) *Refusal {
	what := "your announcement " + e.ID
	if e.Kind == nostr.KindDeletion {
		what = "your deletion request " + e.ID + " of this coordinate"
	}
	why := ", the largest time an event can carry: its created_at is unusable, because no replacement can be dated after it and one dated earlier would lose to it"
	if int64(e.CreatedAt) != math.MaxInt64 {
		why = ", more than " + strconv.Itoa(MaxFutureSkew/60) + " minutes after this machine's clock (" + strconv.FormatInt(now, 10) +
			"): a replacement must be dated after it, and roster dates no event that far ahead (relays refuse such events, and each one pushes every later edit further towards the largest time an event can carry); if the clock is wrong, fix it"
	}
	return refuse("base-in-the-future",
		what+" is dated created_at "+strconv.FormatInt(int64(e.CreatedAt), 10)+why,
		"ask your relays to delete "+e.ID+" with a NIP-09 deletion request naming its id (an address deletion cannot be dated after it), then rerun the change").
		with("event", e.ID).with("created_at", int64(e.CreatedAt)).
		run(suggest.Roster("repo").Because("see what the relays serve for this repository"),
			in.Suggest().Because("once "+e.ID+" is deleted"))
}
