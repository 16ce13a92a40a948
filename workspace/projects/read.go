// Reading Project State from relays: one REQ per relay, each answer verified
// against that relay's own NIP-11 self.

package projects

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// The verdicts on what one relay returned for a project.
const (
	ProjectionValid          = "valid"
	ProjectionNone           = "none"
	ProjectionInvalid        = "invalid"
	ProjectionAmbiguous      = "ambiguous"
	ProjectionUnknownVersion = "unknown-version"
)

// RelayRead is what one relay said about one project.
type RelayRead struct {
	URL    string `json:"url"`
	Status string `json:"status"` // relaypool status of the fetch ("cache" offline)
	Reason string `json:"reason,omitempty"`
	Self   string `json:"self,omitempty"`
	// Projection is one of the Projection* verdicts.
	Projection string `json:"projection"`
	Revision   int64  `json:"revision,omitempty"`
	Error      string `json:"error,omitempty"`

	// State is the verified projection (Projection "valid").
	State *State `json:"-"`
	// Event is the verified projection's event, for a cache.
	Event *nostr.Event `json:"-"`
	// Info is the relay's NIP-11 document, for a cache (nil when unread).
	Info json.RawMessage `json:"-"`
}

// ReadResult is every relay's answer and the newest valid projection.
type ReadResult struct {
	Relays   []RelayRead
	Complete bool
	// Best is the newest valid projection (nil: none), BestURL its relay.
	Best    *State
	BestURL string
}

// Read fetches the projection from every relay (one REQ each, in parallel)
// and verifies each relay's answer against that relay's own `self`.
func Read(ctx context.Context, r pipeline.Relays, urls []string, c Coordinate) ReadResult {
	urls = relaypool.NormalizeRelays(urls)
	infos := pipeline.RelaySelves(ctx, r, urls)
	res := r.Fetch(ctx, urls, ReadFilters(c)...)
	out := ReadResult{Complete: res.Complete}
	for i, rep := range res.Relays {
		rr := RelayRead{URL: rep.URL, Status: rep.Status, Reason: rep.Reason, Self: infos[i].Self, Projection: ProjectionNone, Info: infos[i].Doc}
		evs := pipeline.EventsFrom(res, rep.URL)
		if infos[i].Err != nil && len(evs) > 0 {
			rr.Projection, rr.Error = ProjectionInvalid, infos[i].UnknownSigner()
		} else {
			rr.Judge(evs, c)
		}
		out.Relays = append(out.Relays, rr)
	}
	out.pickBest()
	return out
}

// Cached is one relay's cached answer: its cached NIP-11 self ("" when
// none) and its cached projection event (nil when none).
type Cached func(url string) (self string, evt *nostr.Event)

// ReadCached answers from a cache: each relay's cached projection, verified
// again against that relay's cached self. It is never complete.
func ReadCached(urls []string, c Coordinate, cached Cached) ReadResult {
	var out ReadResult
	for _, url := range relaypool.NormalizeRelays(urls) {
		rr := RelayRead{URL: url, Status: "cache", Projection: ProjectionNone}
		self, evt := cached(url)
		rr.Self = self
		if evt != nil {
			rr.Judge([]*nostr.Event{evt}, c)
		}
		out.Relays = append(out.Relays, rr)
	}
	out.pickBest()
	return out
}

// Judge verifies what one relay returned against rr.Self and records the
// verdict.
func (rr *RelayRead) Judge(evs []*nostr.Event, c Coordinate) {
	st, found, err := FromRelay(evs, c, rr.Self)
	switch {
	case errors.Is(err, ErrAmbiguous):
		rr.Projection, rr.Error = ProjectionAmbiguous, err.Error()
	case errors.Is(err, ErrUnknownVersion):
		rr.Projection, rr.Error = ProjectionUnknownVersion, err.Error()+": ignored; upgrade roster to read it"
	case err != nil:
		rr.Projection, rr.Error = ProjectionInvalid, err.Error()
	case found:
		rr.Projection, rr.Revision, rr.State = ProjectionValid, st.Revision, &st
		for _, e := range evs {
			if e.ID == st.EventID {
				rr.Event = e
			}
		}
	}
}

// pickBest selects the newest valid projection across relays.
func (out *ReadResult) pickBest() {
	var valid []State
	for _, rr := range out.Relays {
		if rr.State != nil {
			valid = append(valid, *rr.State)
		}
	}
	if best, ok := Newest(valid); ok {
		out.Best = &best
		for _, rr := range out.Relays {
			if rr.State != nil && rr.State.EventID == best.EventID {
				out.BestURL = rr.URL
				break
			}
		}
	}
}

// Failures lists the relays of a read that did not answer, with how many did.
func (out ReadResult) Failures() (answered int, failed []RelayRead) {
	for _, r := range out.Relays {
		if r.Status == relaypool.StatusOK {
			answered++
			continue
		}
		failed = append(failed, r)
	}
	return answered, failed
}

// showOn reads the project on relay.
func showOn(c Coordinate, relay string) suggest.Command {
	return suggest.Roster("project", "show", c.String(), "--relay", relay)
}

// NotFound is the "not-found" error: every relay asked answered, and none
// holds a valid projection.
func NotFound(c Coordinate, rd ReadResult) *pipeline.Error {
	var why []string
	for _, r := range rd.Relays {
		if r.Error != "" {
			why = append(why, fmt.Sprintf("%s: %s", r.URL, r.Error))
		} else {
			why = append(why, fmt.Sprintf("%s has no projection", r.URL))
		}
	}
	return &pipeline.Error{Class: pipeline.Incomplete, Code: "not-found",
		Msg: fmt.Sprintf("no relay-signed state for project %s (%s); the relay materializes it once the owner publishes the project's kind 30621 identity there",
			c, strings.Join(why, "; ")),
		Details: map[string]any{"coordinate": c.String(), "address": c.Address(), "relays": rd.Relays},
		Next:    []suggest.Command{suggest.Roster("project", "show", c.String(), "--relay", "wss://<relay hosting the project>")}}
}

// Current reads relay's current projection, requiring a complete answer
// and a valid projection (else a *pipeline.Error).
func Current(ctx context.Context, r pipeline.Relays, relay string, c Coordinate) (ReadResult, error) {
	rd := Read(ctx, r, []string{relay}, c)
	if !rd.Complete {
		rr := rd.Relays[0]
		return rd, &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete",
			Msg:  fmt.Sprintf("%s did not answer for project %s (%s); nothing was published", relay, c, pipeline.Outcome(rr.Status, rr.Reason)),
			Next: []suggest.Command{showOn(c, relay)}}
	}
	if rd.Best == nil {
		return rd, NotFound(c, rd)
	}
	return rd, nil
}
