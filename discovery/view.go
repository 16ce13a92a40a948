// Package discovery is the read pipeline every repository command starts
// from: ask the relays (or the cache alone) for every same-identifier
// announcement, state event and deletion of the selected coordinate, keep
// the verified, in-scope ones, resolve the maintainer graph and select the
// repository state. It takes the selection, the relays, the cache and the
// clock as data; it renders nothing.
package discovery

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// Evidence is how complete a read must be before a command may use it
// (the maintainer model's "Relay disagreement"): reads show partial
// information, health checks and membership writes fail closed.
type Evidence int

const (
	// Partial: show what answered and mark the result incomplete.
	Partial Evidence = iota
	// Complete: every relay must answer, else the read is an *Incomplete error.
	Complete
)

// View is one discovery of a repository: the selection, what each relay
// said, the verified events, the graph resolution and the resolved state.
type View struct {
	Selection gitstate.Selection
	// Checkout is the Git checkout discovery ran in; nil outside one.
	Checkout *gitstate.Checkout
	// Relays are the relays asked, in order (empty offline).
	Relays []string
	// Fetch is what the relays answered; nil offline.
	Fetch *relaypool.FetchResult
	// Search is how a write's discovery chose its relays (Source.Write);
	// nil for a read.
	Search *RelaySearch
	// Events are the verified, in-scope events resolution used.
	Events []*nostr.Event
	// Actions are the verified role-scoped events and their targets
	// (discovery/actions.go), read only with Complete evidence;
	// ActionsDropped counts those left out by its bounds.
	Actions        []*nostr.Event
	ActionsDropped int
	// ActionsOverLimit are the ids of the first of those left out
	// (SelectActions), for a refusal to name.
	ActionsOverLimit []string
	// Resolution is graph.Resolve rooted at the selected coordinate.
	Resolution *graph.Resolution
	// StateEvent is the resolved kind 30618 event and State its parse; nil
	// when no confirmed maintainer published usable state.
	StateEvent *nostr.Event
	State      *graph.State
	// Viewer is the signed-in user's hex pubkey, or "" when nobody is.
	Viewer string
	// Now is the clock reading the resolution used (Unix seconds).
	Now     int64
	Offline bool
	// Profiles are the people's kind 0 profiles by hex pubkey (profiles.go),
	// when Source.People asked for them; nil otherwise.
	Profiles map[string]Profile
	// LastComplete are the last complete versions of the identifier's
	// announcements the local cache keeps (cache.Cache.LastComplete): each
	// the version a republish with fewer role records replaced.
	LastComplete []*nostr.Event
	// RoleLosses are the announcements of current or former maintainers
	// that lost role records against their last complete version
	// (graph.RoleLosses): the role-records-dropped findings and what
	// `roster repo repair` restores.
	RoleLosses []graph.RoleLoss
}

// Complete reports whether every relay answered. An offline read is never
// complete: a cached event is not proof that it is still the latest.
func (v *View) Complete() bool {
	return !v.Offline && v.Fetch != nil && v.Fetch.Complete
}

// Coordinate is the selected coordinate.
func (v *View) Coordinate() graph.Coordinate { return v.Selection.Coordinate }

// Answered counts the relays that answered with EOSE.
func (v *View) Answered() int { return Answered(v.Fetch) }

// Unanswered are the URLs of the relays that did not answer with EOSE, in
// the order asked (none offline).
func (v *View) Unanswered() []string {
	var out []string
	if v.Fetch != nil {
		for _, r := range v.Fetch.Relays {
			if r.Status != relaypool.StatusOK {
				out = append(out, r.URL)
			}
		}
	}
	return out
}

// Answered counts the relays of res that answered with EOSE.
func Answered(res *relaypool.FetchResult) int {
	n := 0
	if res != nil {
		for _, r := range res.Relays {
			if r.Status == relaypool.StatusOK {
				n++
			}
		}
	}
	return n
}
