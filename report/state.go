package report

import (
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/statepub"
)

// Schemas of `roster repo state` and `roster repo state publish`.
const (
	StateSchema        = "roster.state/v1"
	StatePublishSchema = "roster.state-publish/v1"
)

// StateReport is roster.state/v1: the resolved kind 30618 state and, in a
// checkout, how the checkout differs from it.
type StateReport struct {
	Schema     string           `json:"schema"`
	Coordinate Coordinate       `json:"coordinate"`
	Complete   bool             `json:"complete"`
	State      *StateEvent      `json:"state"`
	Checkout   *CheckoutCompare `json:"checkout"`
	// GitServers compares each advertised clone server with the state
	// (git_servers.go; [] with --no-git-servers or without a state).
	GitServers []GitServer `json:"git_servers"`
}

// StateEvent is a resolved kind 30618 state; its author as an npub.
type StateEvent struct {
	EventID   string            `json:"event_id"`
	Author    string            `json:"author"`
	CreatedAt int64             `json:"created_at"`
	Head      string            `json:"head"`
	Refs      map[string]string `json:"refs"`
}

// CheckoutCompare is the checkout compared with the state, both ways.
type CheckoutCompare struct {
	Dir        string                `json:"dir"`
	Remote     string                `json:"remote"`
	Aligned    bool                  `json:"aligned"`
	Head       string                `json:"head"`
	Align      []preflight.RefAction `json:"align"`
	ForceWould []preflight.RefAction `json:"force_would"`
	Tracked    []string              `json:"tracked"`
	// TrackedBy names each tracked branch's remote-tracking branch;
	// Remotes are the remotes whose remote-tracking branches count.
	TrackedBy map[string]string `json:"tracked_by"`
	Remotes   []string          `json:"remotes"`
	// Refs is each ref compared by ancestry; Publish what `roster repo
	// state publish` would do (the same computation it runs).
	Refs    []statepub.RefStatus `json:"refs"`
	Publish StatePublishPreview  `json:"publish"`
}

// StatePublishPreview is what `roster repo state publish` would change in
// the resolved state, and the changes it refuses without --force.
type StatePublishPreview struct {
	Changes  []preflight.RefAction `json:"changes"`
	Rewrites []statepub.Rewrite    `json:"rewrites"`
}

// CoordinateOf is c as the documents carry it: hex and npub, and its naddr.
func CoordinateOf(c graph.Coordinate) Coordinate {
	return Coordinate{Kind: c.Kind, Pubkey: c.Pubkey, Npub: graph.Npub(c.Pubkey), Identifier: c.Identifier, Naddr: gitstate.EncodeNaddr(c, nil)}
}

// StateEventOf is s with its author as an npub and its refs copied; nil
// for no state.
func StateEventOf(s *graph.State) *StateEvent {
	if s == nil {
		return nil
	}
	out := &StateEvent{EventID: s.EventID, Author: graph.Npub(s.Author), CreatedAt: s.CreatedAt, Head: s.Head, Refs: map[string]string{}}
	for k, v := range s.Refs {
		out.Refs[k] = v
	}
	return out
}

// StateFromView maps one discovery onto roster.state/v1, with the
// checkout's comparison when there is one (cmp nil: no checkout).
func StateFromView(v *discovery.View, cmp *statepub.Comparison) StateReport {
	out := StateReport{Schema: StateSchema, Coordinate: CoordinateOf(v.Coordinate()), Complete: v.Complete(), State: StateEventOf(v.State)}
	if cmp != nil {
		al := cmp.Alignment
		out.Checkout = &CheckoutCompare{Dir: cmp.Dir, Remote: cmp.Remote, Head: al.Head, Aligned: cmp.Aligned(),
			Align: al.Align, ForceWould: al.ForceWould, Tracked: al.Tracked, TrackedBy: al.TrackedBy,
			Remotes: append([]string{}, cmp.Remotes...), Refs: append([]statepub.RefStatus{}, cmp.Refs...),
			Publish: StatePublishPreview{Changes: append([]preflight.RefAction{}, cmp.Changes...), Rewrites: append([]statepub.Rewrite{}, cmp.Rewrites...)}}
	}
	out.GitServers = []GitServer{} // the command lists them (repo_git_servers.go)
	return out
}

// StatePublish is roster.state-publish/v1.
type StatePublish struct {
	Schema     string     `json:"schema"`
	DryRun     bool       `json:"dry_run"`
	Forced     bool       `json:"forced"`
	Coordinate Coordinate `json:"coordinate"`
	// Target names the repository the write selected and why (target.go);
	// null when the publish stopped before it read the repository.
	Target       *Target               `json:"target"`
	Resolved     *StateEvent           `json:"resolved"`
	Event        StatePublishEvent     `json:"event"`
	Changes      []preflight.RefAction `json:"changes"`
	Rewrites     []statepub.Rewrite    `json:"rewrites"`
	Tracked      []string              `json:"tracked"`
	Availability map[string]any        `json:"availability"`
	Unchanged    bool                  `json:"unchanged"`
	Published    []string              `json:"published"`
	Relays       []relaypool.Delivered `json:"relays"`
	Verified     bool                  `json:"verified"`
}

// StatePublishEvent is the state event published (or, on a dry run, that
// would be).
type StatePublishEvent struct {
	ID        string            `json:"id"`
	CreatedAt int64             `json:"created_at"`
	Head      string            `json:"head"`
	Refs      map[string]string `json:"refs"`
}

// StatePublishOf maps what the publish pipeline did (o may be nil, or a
// failure's partial outcome) onto roster.state-publish/v1: every list
// present, empty when there is nothing in it.
func StatePublishOf(o *statepub.Outcome, opts statepub.Options) StatePublish {
	out := StatePublish{Schema: StatePublishSchema, DryRun: opts.DryRun, Forced: opts.Force, Changes: []preflight.RefAction{},
		Rewrites: []statepub.Rewrite{}, Tracked: []string{}, Published: []string{}, Relays: []relaypool.Delivered{},
		Availability: map[string]any{}}
	if o == nil {
		return out
	}
	if o.View != nil {
		out.Coordinate, out.Resolved = CoordinateOf(o.View.Coordinate()), StateEventOf(o.View.State)
		tg := TargetOf(o.View)
		out.Target = &tg
	}
	if pl := o.Plan; pl != nil {
		out.Event = StatePublishEvent{CreatedAt: pl.CreatedAt, Head: pl.Head, Refs: pl.Refs}
		out.Changes = append(out.Changes, pl.Changes...)
		out.Rewrites = append(out.Rewrites, pl.Rewrites...)
		out.Tracked = append(out.Tracked, pl.Tracked...)
		if pl.Availability.Verdict != "" {
			out.Availability = gitstate.AvailabilityDetails(pl.Availability)
		}
	}
	if out.Event.Refs == nil {
		out.Event.Refs = map[string]string{}
	}
	out.Unchanged = o.Unchanged
	if o.Event != nil {
		out.Event.ID, out.Event.CreatedAt = o.Event.ID, int64(o.Event.CreatedAt)
	}
	if o.Delivery != nil {
		out.Relays = append(out.Relays, o.Delivery.Relays...)
		if o.Delivery.Accepted > 0 {
			out.Published = append(out.Published, o.Event.ID)
		}
	}
	out.Verified = o.Verified
	return out
}
