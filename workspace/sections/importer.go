// The import pipeline: migrate the owner's legacy channel-sections blob into
// the relay's workspace, switching only once the marker reads back.

package sections

import (
	"context"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// ImportResult is an import whose migration marker read back.
type ImportResult struct {
	Source  *LegacySource
	Event   *nostr.Event
	Command *Command
	After   *Current
}

// Import migrates the signer's own legacy blob (the session's owner must be
// its signer): the workspace must be at revision zero with no marker.
// Refusals and failures are *pipeline.Error, signer failures
// *pipeline.SignerError.
func (s *Session) Import(ctx context.Context) (*ImportResult, error) {
	showMine := []suggest.Command{suggest.Roster("workspace", "show", "--relay", s.Relay)}
	res, err := s.Sync(ctx)
	var pe *pipeline.Error
	switch {
	case err == nil && res.Stale:
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "stale", Err: ErrStaleBasis,
			Msg: fmt.Sprintf("%v; cannot tell whether the workspace is already imported", ErrStaleBasis)}
	case err == nil:
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "already-imported",
			Msg:     fmt.Sprintf("your workspace on %s is already imported (revision %d); the legacy blob is now read-only and is never written again", s.Community, res.Verified.Projection.Revision),
			Details: map[string]any{"migration": res.Verified.Projection.Migration},
			Next:    showMine}
	case errors.As(err, &pe) && pe.Code == "no-projection":
		// revision zero: go on
	default:
		return nil, err
	}
	f := nostr.Filter{Kinds: []int{KindLegacy}, Authors: []string{s.Me}, Tags: nostr.TagMap{"d": {LegacyD}}}
	fr := s.Relays.Fetch(ctx, []string{s.Relay}, f)
	if !fr.Complete {
		r := fr.Relays[0]
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete",
			Msg:     fmt.Sprintf("%s did not answer for your legacy channel-sections event (%s); nothing was published", s.Relay, pipeline.Outcome(r.Status, r.Reason)),
			Details: map[string]any{"relay": s.Relay, "status": r.Status, "reason": r.Reason},
			Next:    []suggest.Command{suggest.Roster("workspace", "import", "--relay", s.Relay, "--timeout", "30s").Because("retry once the relay is back")}}
	}
	src, err := NewestLegacy(ctx, s.Signer, s.Me, fr.Events)
	if err != nil {
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "no-legacy", Err: err, Msg: fmt.Sprintf("%v; nothing to import", err)}
	}
	body, _, err := ImportBody(ctx, s.Signer, s.Community, s.Me, src)
	if err != nil {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "invalid-command", Err: err,
			Msg: fmt.Sprintf("legacy blob cannot be imported: %v; nothing was signed", err)}
	}
	evt, parsed, err := s.SignCommand(ctx, s.Me, body)
	if err != nil {
		return nil, err
	}
	rep := s.Publish(ctx, s.Relay, evt)
	if !rep.OK {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "relay-rejected",
			Msg: fmt.Sprintf("%s refused the import, nothing changed: %s", s.Relay, rep.Message), Details: map[string]any{"event_id": evt.ID}}
	}
	cur, err := s.Load(ctx)
	if err != nil || cur.Sync.Stale || !MarkerMatches(cur.Sync.Verified.Projection, src) {
		return nil, &pipeline.Error{Class: pipeline.Unverified, Code: "unverified",
			Msg:  fmt.Sprintf("%s accepted the import (event %s) but the matching migration marker did not read back; roster has not switched", s.Relay, evt.ID),
			Next: showMine}
	}
	return &ImportResult{Source: src, Event: evt, Command: parsed, After: cur}, nil
}
