// Package eventcheck is the pipeline of `roster repo check-event`: fetch
// one event by id, find its repository through its `a` tag (or its root
// target's), resolve that repository with complete evidence, and say
// whether the event's author was authorized for the event's kind at its
// created_at (graph.Resolution.GrantAt), or is the target's own author.
// Relays, the pool and the discovery are passed in; nothing here renders.
package eventcheck

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// Ref is a parsed event reference: its id and the relay hints a nevent
// carries.
type Ref struct {
	ID     string
	Relays []string
}

// ParseRef reads a nevent, a note1 or a 64-hex id.
func ParseRef(s string) (Ref, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "nostr:")
	if isHex64(s) {
		return Ref{ID: s}, nil
	}
	prefix, v, err := nip19.Decode(s)
	if err != nil {
		return Ref{}, fmt.Errorf("%q is not a nevent, note1 or 64-hex event id", s)
	}
	switch prefix {
	case "note":
		return Ref{ID: v.(string)}, nil
	case "nevent":
		p := v.(nostr.EventPointer)
		return Ref{ID: p.ID, Relays: relaypool.NormalizeRelays(p.Relays)}, nil
	}
	return Ref{}, fmt.Errorf("%q is a %s, not a nevent, note1 or event id", s, prefix)
}

// Pipeline is what one check needs from the outside world.
type Pipeline struct {
	// Relays are asked for the event and its target (the user's relays
	// plus the reference's hints).
	Relays []string
	// Source is how repositories are read: the check resolves each one it
	// needs with discovery.Load, complete evidence, asking the source's
	// relays (plus the coordinate's hints unless they are pinned:
	// discovery.SelectionRelays); its pool also asks for the events.
	// What discovery could not do is returned as discovery's own errors.
	Source discovery.Source
	// Viewer is whose announcement discovery's advisories are about; Now
	// the clock the resolutions are made at.
	Viewer string
	Now    func() time.Time
	// Selected, when set (--repo), is the repository to check the event
	// against instead of the one it names; the event must name a
	// coordinate with the same identifier.
	Selected *gitstate.Selection
}

// ReasonOtherRepository: with Pipeline.Selected, the event names no
// coordinate with the selected repository's identifier.
const ReasonOtherRepository = "names-another-repository"

// Verdict is the answer.
type Verdict struct {
	Event  *nostr.Event
	Action graph.Action
	// Target is the issue, patch or pull request the event names by its
	// root `e` (nil when not found or none).
	Target *nostr.Event
	// Coordinate is the repository the event names.
	Coordinate graph.Coordinate
	View       *discovery.View
	// Grant is the role authorization at the event's created_at.
	Grant graph.Grant
	// TargetAuthor: the event's author wrote the target (author-specific
	// actions on their own issue or proposal).
	TargetAuthor bool
	Authorized   bool
}

// Incomplete is evidence the check could not get: the event, its
// repository or (for an author with no role) its target (class
// incomplete, code "incomplete").
type Incomplete struct {
	failure.Failure
	// Verdict is what was established so far (nil before the event was found).
	Verdict *Verdict
	// Fetch is the relays' answer to the event request.
	Fetch *relaypool.FetchResult
}

// NotAnAction: the event is not a status, label, subject, cover note or
// repository state (class usage, code "usage").
type NotAnAction struct {
	failure.Failure
	Event *nostr.Event
}

// NeedsRepository: a kind 30618 state event names no repository beyond its
// identifier, so the check needs one given (Pipeline.Selected; class
// usage, code "no-coordinate").
type NeedsRepository struct {
	failure.Failure
	Event *nostr.Event
}

// MaxRefs bounds how many events one CheckMany call checks (the
// references come from the caller's stdin or arguments).
const MaxRefs = 1000

// idsPerFilter is how many ids one filter of a fetch names; one request
// per relay carries all the filters.
const idsPerFilter = 100

// Result is one reference's answer from CheckMany: a verdict or the error
// Check would have returned.
type Result struct {
	Ref     Ref
	Verdict *Verdict
	Err     error
}

// Check runs the pipeline for ref.
func (p Pipeline) Check(ctx context.Context, ref Ref) (*Verdict, error) {
	r := p.CheckMany(ctx, []Ref{ref})[0]
	return r.Verdict, r.Err
}

// CheckMany checks every reference (at most MaxRefs) in one round per
// relay: one request for all the events, one for all their targets, then
// one resolution per distinct repository. The relays asked are Relays
// plus every reference's hints. Results are in the order of refs.
func (p Pipeline) CheckMany(ctx context.Context, refs []Ref) []Result {
	if len(refs) > MaxRefs {
		refs = refs[:MaxRefs]
	}
	relays := append([]string(nil), p.Relays...)
	var ids []string
	for _, r := range refs {
		relays = append(relays, r.Relays...)
		if !slices.Contains(ids, r.ID) {
			ids = append(ids, r.ID)
		}
	}
	relays = relaypool.NormalizeRelays(relays)
	pool := p.Source.Pool()
	defer pool.Close()
	res := pool.Fetch(ctx, relays, idFilters(ids, nil)...)
	events := map[string]*nostr.Event{}
	var targets []string
	for _, id := range ids {
		evt := byID(res.Events, id)
		if evt == nil {
			continue
		}
		events[id] = evt
		if evt.Kind == graph.KindState {
			continue
		}
		if t := actions.TargetRefs(evt); len(t) > 0 && !slices.Contains(targets, t[0]) {
			targets = append(targets, t[0])
		}
	}
	var found []*nostr.Event
	if len(targets) > 0 {
		found = pool.Fetch(ctx, relays, idFilters(targets, actions.TargetKinds)...).Events
	}
	views := map[string]viewResult{}
	out := make([]Result, len(refs))
	for i, ref := range refs {
		v, err := p.judge(ctx, relays, res, events[ref.ID], ref, found, views)
		out[i] = Result{Ref: ref, Verdict: v, Err: err}
	}
	return out
}

type viewResult struct {
	view *discovery.View
	err  error
}

// discoverOnce resolves sel, once per coordinate per CheckMany.
func (p Pipeline) discoverOnce(ctx context.Context, sel gitstate.Selection, views map[string]viewResult) (*discovery.View, error) {
	key := sel.Coordinate.Pubkey + ":" + sel.Coordinate.Identifier
	vr, seen := views[key]
	if !seen {
		src := p.Source
		src.Relays = discovery.SelectionRelays(src.Relays, src.Pinned, sel)
		vr.view, vr.err = discovery.Load(ctx, src, sel, nil, discovery.Complete, p.Viewer, p.Now().Unix())
		views[key] = vr
	}
	return vr.view, vr.err
}

// idFilters splits ids into filters of idsPerFilter ids each.
func idFilters(ids []string, kinds []int) []nostr.Filter {
	var out []nostr.Filter
	for len(ids) > 0 {
		n := min(len(ids), idsPerFilter)
		out = append(out, nostr.Filter{IDs: ids[:n], Kinds: kinds, Limit: n})
		ids = ids[n:]
	}
	return out
}

// judge decides one event, resolving its repository once per distinct
// selection (views).
func (p Pipeline) judge(ctx context.Context, relays []string, res *relaypool.FetchResult, evt *nostr.Event, ref Ref, targets []*nostr.Event, views map[string]viewResult) (*Verdict, error) {
	if evt == nil {
		return nil, incomplete(ref, fmt.Sprintf("no relay asked holds event %s", ref.ID), nil, res)
	}
	v := &Verdict{Event: evt}
	act, ok := actions.ActionOf(evt)
	state := evt.Kind == graph.KindState && evt.Tags.GetD() != ""
	if state {
		// Repository state: eligible only from a currently confirmed
		// maintainer, whatever its created_at (graph.Authorized).
		act, ok = graph.ActionState, true
	}
	if !ok {
		return nil, notAnAction(ref, evt)
	}
	v.Action = act
	if refs := actions.TargetRefs(evt); len(refs) > 0 && !state {
		v.Target = byID(targets, refs[0])
	}
	coords := actions.RepositoryRefs(evt)
	if state {
		// A state event names its repository by `d` only, and resolving its
		// author's own coordinate would ask the author whether they may: the
		// repository must be given (--repo).
		if p.Selected == nil {
			return nil, needsRepository(ref, evt)
		}
		coords = []graph.Coordinate{graph.NewCoordinate(evt.PubKey, evt.Tags.GetD())}
	}
	if len(coords) == 0 && v.Target != nil {
		coords = actions.RepositoryRefs(v.Target)
	}
	if len(coords) == 0 {
		return nil, incomplete(ref, fmt.Sprintf("event %s names no repository (no `a` tag 30617:<pubkey>:<identifier>, on it or on its root target)", evt.ID), v, res)
	}
	sel := gitstate.Selection{Coordinate: coords[0], Relays: relays, Source: "event"}
	if p.Selected != nil {
		sel = *p.Selected
		if !slices.ContainsFunc(coords, func(c graph.Coordinate) bool { return c.Identifier == sel.Coordinate.Identifier }) {
			v.Coordinate, v.Grant = sel.Coordinate, graph.Grant{Reason: ReasonOtherRepository}
			return v, nil
		}
	}
	v.Coordinate = sel.Coordinate
	view, err := p.discoverOnce(ctx, sel, views)
	if err != nil {
		return nil, err
	}
	v.View = view
	v.Grant = view.Resolution.GrantAt(evt.PubKey, act, int64(evt.CreatedAt))
	if rc := view.Resolution.RecommendedCoordinate; !v.Grant.Authorized && p.Selected == nil && rc != nil && *rc != sel.Coordinate {
		// The named coordinate forwards (its author follows a lead, or
		// departed toward one): the roles, and the history of a former
		// maintainer's tenure, are the lead's resolution's. Following the
		// pointer grants nothing the lead's component did not.
		lead := gitstate.Selection{Coordinate: *rc, Relays: relays, Source: "event"}
		if lv, err := p.discoverOnce(ctx, lead, views); err == nil {
			if g := lv.Resolution.GrantAt(evt.PubKey, act, int64(evt.CreatedAt)); g.Authorized {
				v.Coordinate, v.View, v.Grant = *rc, lv, g
			}
		}
	}
	v.TargetAuthor = v.Target != nil && v.Target.PubKey == evt.PubKey
	v.Authorized = v.Grant.Authorized || v.TargetAuthor
	if !v.Authorized && v.Target == nil && len(actions.TargetRefs(evt)) > 0 {
		// Without the target nobody can tell whether the author wrote it.
		return nil, incomplete(ref, fmt.Sprintf("the author has no role covering the event's time, and its target %s was not found to tell whether they wrote it", actions.TargetRefs(evt)[0]), v, res)
	}
	return v, nil
}

func byID(events []*nostr.Event, id string) *nostr.Event {
	for _, e := range events {
		if e.ID == id {
			return e
		}
	}
	return nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
