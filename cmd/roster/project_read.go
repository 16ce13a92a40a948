// Reading Project State from relays: one REQ per relay, each answer
// verified against that relay's own NIP-11 self.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/projects"
)

// projectRelayRead is what one relay said about one project.
type projectRelayRead struct {
	URL    string `json:"url"`
	Status string `json:"status"` // relaypool status of the fetch
	Reason string `json:"reason,omitempty"`
	Self   string `json:"self,omitempty"`
	// Projection is "valid", "none", "invalid", "ambiguous" or "unknown-version".
	Projection string `json:"projection"`
	Revision   int64  `json:"revision,omitempty"`
	Error      string `json:"error,omitempty"`

	state *projects.State
	event *nostr.Event    // the verified projection, for the cache
	info  json.RawMessage // the relay's NIP-11 document, for the cache
}

// projectReadResult is every relay's answer and the newest valid projection.
type projectReadResult struct {
	relays   []projectRelayRead
	complete bool
	best     *projects.State
	bestURL  string
}

// projectRead fetches the projection from every relay (one REQ each, in
// parallel) and verifies each relay's answer against that relay's own `self`.
func projectRead(ctx context.Context, pool *relaypool.Pool, relays []string, c projects.Coordinate) projectReadResult {
	relays = relaypool.NormalizeRelays(relays)
	infos := readRelayInfos(ctx, pool, relays)
	res := pool.Fetch(ctx, relays, nostr.Filter{Kinds: []int{projects.KindState}, Tags: nostr.TagMap{"d": {c.Address()}}})
	out := projectReadResult{complete: res.Complete}
	var valid []projects.State
	for i, rep := range res.Relays {
		rr := projectRelayRead{URL: rep.URL, Status: rep.Status, Reason: rep.Reason, Self: infos[i].self, Projection: "none", info: infos[i].doc}
		evs := eventsFrom(res, rep.URL)
		if infos[i].err != nil && len(evs) > 0 {
			rr.Projection, rr.Error = "invalid", infos[i].unknownSigner()
		} else {
			projectJudge(&rr, evs, c)
		}
		if rr.state != nil {
			valid = append(valid, *rr.state)
		}
		out.relays = append(out.relays, rr)
	}
	projectPickBest(&out, valid)
	return out
}

// projectJudge verifies what one relay returned and records the verdict.
func projectJudge(rr *projectRelayRead, evs []*nostr.Event, c projects.Coordinate) {
	st, found, err := projects.FromRelay(evs, c, rr.Self)
	switch {
	case errors.Is(err, projects.ErrAmbiguous):
		rr.Projection, rr.Error = "ambiguous", err.Error()
	case errors.Is(err, projects.ErrUnknownVersion):
		rr.Projection, rr.Error = "unknown-version", err.Error()+": ignored; upgrade roster to read it"
	case err != nil:
		rr.Projection, rr.Error = "invalid", err.Error()
	case found:
		rr.Projection, rr.Revision, rr.state = "valid", st.Revision, &st
		for _, e := range evs {
			if e.ID == st.EventID {
				rr.event = e
			}
		}
	}
}

// projectPickBest selects the newest valid projection across relays.
func projectPickBest(out *projectReadResult, valid []projects.State) {
	if best, ok := projects.Newest(valid); ok {
		out.best = &best
		for _, rr := range out.relays {
			if rr.state != nil && rr.state.EventID == best.EventID {
				out.bestURL = rr.URL
				break
			}
		}
	}
}

// relayInfo is one relay's NIP-11 answer: its `self` (the key that signs
// relay-authoritative state), the raw document for the cache, or why it
// could not be read.
type relayInfo struct {
	self string
	doc  json.RawMessage
	err  error
}

func (ri relayInfo) unknownSigner() string {
	return fmt.Sprintf("the relay's NIP-11 document could not be read, so its signer is unknown: %v", ri.err)
}

// readRelayInfos reads every relay's NIP-11 document in parallel, in the
// order of relays.
func readRelayInfos(ctx context.Context, pool *relaypool.Pool, relays []string) []relayInfo {
	out := make([]relayInfo, len(relays))
	done := make(chan struct{}, len(relays))
	for i, u := range relays {
		go func() {
			defer func() { done <- struct{}{} }()
			info, err := pool.RelayInfo(ctx, u)
			if err != nil {
				out[i].err = err
				return
			}
			out[i].self, out[i].doc = info.Self, info.Raw
		}()
	}
	for range relays {
		<-done
	}
	return out
}

// eventsFrom is what relay url returned of a fetch: each relay's state is
// judged against that relay's own self.
func eventsFrom(res *relaypool.FetchResult, url string) []*nostr.Event {
	var evs []*nostr.Event
	for _, e := range res.Events {
		if slices.Contains(res.Sources[e.ID], url) {
			evs = append(evs, e)
		}
	}
	return evs
}

// projectCurrent reads the relay's current projection, requiring a complete
// answer and a valid projection.
func projectCurrent(ctx context.Context, pool *relaypool.Pool, relay string, c projects.Coordinate) (projectReadResult, error) {
	rd := projectRead(ctx, pool, []string{relay}, c)
	if !rd.complete {
		r := rd.relays[0]
		return rd, &exitError{Code: exitIncomplete, Kind: "incomplete",
			Err:      fmt.Errorf("%s did not answer for project %s (%s); nothing was published", relay, c, relayOutcome(r.Status, r.Reason)),
			Commands: []string{fmt.Sprintf("roster project show %s --relay %s", c, relay)}}
	}
	if rd.best == nil {
		return rd, projectMissing(c, rd, "roster project show "+c.String())
	}
	return rd, nil
}

// projectLazyAuth answers a relay's NIP-42 challenge on reads, opening the
// signer only when a relay asks.
func (a *app) projectLazyAuth(ctx context.Context, evt *nostr.Event) error {
	s, err := a.signer(ctx)
	if err != nil {
		return err
	}
	return s.SignEvent(ctx, evt)
}
