package main

import (
	"context"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
)

// evidence is how complete a read must be before a command may use it
// (maintainers.md "Relay disagreement"): reads show partial information,
// health checks and membership writes fail closed.
type evidence int

const (
	// partialEvidence: show what answered and mark the result incomplete.
	partialEvidence evidence = iota
	// completeEvidence: every relay must answer, else exit 4.
	completeEvidence
)

// repoView is one discovery of a repository: the selection, what each relay
// said, the verified events, the graph resolution and the resolved state.
// Every repository command (read or write) starts from one.
type repoView struct {
	Selection gitstate.Selection
	// Checkout is the Git checkout discovery ran in; nil outside one.
	Checkout *gitstate.Checkout
	// Relays are the relays asked, in order (empty with --offline).
	Relays []string
	// Fetch is what the relays answered; nil with --offline.
	Fetch *relaypool.FetchResult
	// Events are the verified, in-scope events resolution used.
	Events []*nostr.Event
	// Resolution is graph.Resolve rooted at the selected coordinate.
	Resolution *graph.Resolution
	// StateEvent is the resolved kind 30618 event and State its parse; nil
	// when no confirmed maintainer published usable state.
	StateEvent *nostr.Event
	State      *gitstate.State
	// Viewer is the signed-in user's hex pubkey, or "" when nobody is.
	Viewer string
	// Now is the clock reading the resolution used (Unix seconds).
	Now     int64
	Offline bool
}

// Complete reports whether every relay answered. An offline read is never
// complete: a cached event is not proof that it is still the latest.
func (v *repoView) Complete() bool {
	return !v.Offline && v.Fetch != nil && v.Fetch.Complete
}

// Coordinate is the selected coordinate.
func (v *repoView) Coordinate() graph.Coordinate { return v.Selection.Coordinate }

// loadRepo runs the shared read pipeline: resolve the coordinate, discover
// every same-identifier announcement, state event and deletion (from the
// relays, or the cache with --offline), verify them, resolve the maintainer
// graph and select the state. With completeEvidence, a relay that did not
// answer is exit 4 before anything else is decided.
func (a *app) loadRepo(ctx context.Context, need evidence) (*repoView, error) {
	v := &repoView{Offline: a.opts.Offline, Now: a.io.Now().Unix()}
	var err error
	if v.Selection, v.Checkout, err = a.selectCoordinate(ctx); err != nil {
		return nil, err
	}
	v.Viewer = a.viewerPubkey()

	if v.Offline {
		err = a.readCached(v)
	} else {
		err = a.fetchFromRelays(ctx, v, need)
	}
	if err != nil {
		return nil, err
	}
	if need == completeEvidence && !v.Complete() {
		return nil, a.incompleteErr(v)
	}
	if !hasAnnouncementOrDeletion(v.Events, v.Coordinate()) {
		if !v.Offline && answered(v.Fetch) == 0 {
			// Nothing was searched: say the relays failed, not "not found".
			return nil, a.incompleteErr(v)
		}
		return nil, a.notFoundErr(v)
	}
	v.Resolution = graph.Resolve(v.Events, v.Coordinate(), v.Now, graph.Options{Viewer: v.Viewer})
	v.StateEvent = graph.SelectState(v.Events, v.Resolution)
	if v.StateEvent != nil {
		// An unparseable state event is reported as no state rather than
		// failing the whole read.
		if st, err := gitstate.ParseState(v.StateEvent); err == nil {
			v.State = st
		} else {
			v.StateEvent = nil
		}
	}
	return v, nil
}

// inScope keeps events that are in scope (kind 30617/30618 with the
// identifier as `d`, or kind 5) and whose id matches their content, once
// each. Signatures were checked where events entered roster: relaypool
// verifies id, signature and filter of every event a relay sends, and the
// cache stores only events carrying the pool's proof of that check (or
// checks them itself); checking them again here cost a third of a cold read (docs/PERFORMANCE.md). The id check is cheap and
// catches a damaged cache record.
func inScope(events []*nostr.Event, identifier string) []*nostr.Event {
	out := make([]*nostr.Event, 0, len(events))
	seen := map[string]bool{}
	for _, e := range events {
		if e == nil || seen[e.ID] {
			continue
		}
		switch e.Kind {
		case graph.KindAnnouncement, graph.KindState:
			if e.Tags.GetD() != identifier {
				continue
			}
		case graph.KindDeletion:
		default:
			continue
		}
		if !e.CheckID() {
			continue
		}
		seen[e.ID] = true
		out = append(out, e)
	}
	return out
}

// hasAnnouncementOrDeletion reports whether the selected author's
// announcement (or a deletion of it, which still supports a lifecycle
// notice) was found.
func hasAnnouncementOrDeletion(events []*nostr.Event, c graph.Coordinate) bool {
	for _, e := range events {
		if e.PubKey != c.Pubkey {
			continue
		}
		if e.Kind == graph.KindAnnouncement {
			return true
		}
		if e.Kind == graph.KindDeletion {
			for _, t := range e.Tags {
				if len(t) >= 2 && t[0] == "a" && t[1] == c.ATag() {
					return true
				}
			}
		}
	}
	return false
}

// viewerPubkey is whose announcement the advisory warnings are about: the
// ROSTER_SECRET_KEY or logged-in pubkey, found without unlocking anything
// (no passphrase prompt, no bunker round trip). Nobody signed in is "".
func (a *app) viewerPubkey() string {
	env, err := a.signerEnv(newSecretReader(a))
	if err != nil {
		return ""
	}
	acct, err := signer.Identify(env)
	if err != nil {
		return ""
	}
	return acct.Pubkey
}
