// The import pipeline: migrate the owner's legacy channel-sections blob into
// the relay's workspace, switching only once the marker reads back.

package sections

import (
	"context"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"

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
	if err := s.revisionZero(ctx); err != nil {
		return nil, err
	}
	fr, err := s.fetchLegacy(ctx, "import")
	if err != nil {
		return nil, err
	}
	src, err := NewestLegacy(ctx, s.Signer, s.Me, fr.Events)
	if err != nil {
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "no-legacy", Err: err, Msg: fmt.Sprintf("%v; nothing to import", err),
			Next: []suggest.Command{suggest.Roster("workspace", "create", "--relay", s.Relay).Because("start an empty workspace instead")}}
	}
	return s.importSource(ctx, src)
}

// Create starts an empty workspace for the signer when there is nothing to
// migrate: the relay shows no workspace (revision zero, no marker) and holds
// no kind 30078 d=channel-sections event of the owner. It publishes an empty
// legacy blob as the import's source (so the migration marker names a real
// event whose canonical plaintext hashes to source_hash, as NIP-SW's import
// requires) and imports it as revision zero. A legacy blob that exists is
// never replaced: import it instead.
func (s *Session) Create(ctx context.Context) (*ImportResult, error) {
	if err := s.revisionZero(ctx); err != nil {
		return nil, err
	}
	fr, err := s.fetchLegacy(ctx, "create")
	if err != nil {
		return nil, err
	}
	for _, e := range fr.Events {
		if e.Kind == KindLegacy && e.PubKey == s.Me && e.Tags.GetD() == LegacyD {
			return nil, &pipeline.Error{Class: pipeline.Refused, Code: "legacy-exists",
				Msg:     fmt.Sprintf("refused, nothing was published: %s holds your legacy channel-sections event %s; migrate it (`workspace import`) rather than start empty, so no section is lost", s.Relay, e.ID),
				Details: map[string]any{"relay": s.Relay, "legacy_event_id": e.ID},
				Next:    []suggest.Command{suggest.Roster("workspace", "import", "--relay", s.Relay)}}
		}
	}
	src, err := NewLegacySource(ctx, s.Signer, s.Me, LegacyBlob{Version: Version}, s.Now())
	if err != nil {
		return nil, pipeline.Signed(err)
	}
	details := map[string]any{"relay": s.Relay, "event_id": src.Event.ID}
	if e := pipeline.Rejection(s.Publish(ctx, s.Relay, src.Event), s.Relay, "the empty channel-sections event", details, nil); e != nil {
		return nil, e
	}
	return s.importSource(ctx, src)
}

// revisionZero requires the relay to show no workspace of the owner: an
// import or create starts only at revision zero with no migration marker.
func (s *Session) revisionZero(ctx context.Context) error {
	showMine := []suggest.Command{suggest.Roster("workspace", "show", "--relay", s.Relay)}
	res, err := s.Sync(ctx)
	var pe *pipeline.Error
	switch {
	case err == nil && res.Stale:
		return &pipeline.Error{Class: pipeline.Incomplete, Code: "stale", Err: ErrStaleBasis,
			Msg: fmt.Sprintf("%v; cannot tell whether the workspace is already imported", ErrStaleBasis)}
	case err == nil:
		return &pipeline.Error{Class: pipeline.Refused, Code: "already-imported",
			Msg:     fmt.Sprintf("your workspace on %s is already imported (revision %d); the legacy blob is now read-only and is never written again", s.Community, res.Verified.Projection.Revision),
			Details: map[string]any{"migration": res.Verified.Projection.Migration},
			Next:    showMine}
	case errors.As(err, &pe) && pe.Code == "no-projection":
		return nil // revision zero: go on
	default:
		return err
	}
}

// fetchLegacy asks the relay for the signer's kind 30078 d=channel-sections
// events; anything short of a complete answer publishes nothing.
func (s *Session) fetchLegacy(ctx context.Context, verb string) (*relaypool.FetchResult, error) {
	f := nostr.Filter{Kinds: []int{KindLegacy}, Authors: []string{s.Me}, Tags: nostr.TagMap{"d": {LegacyD}}}
	fr := s.Relays.Fetch(ctx, []string{s.Relay}, f)
	if !fr.Complete {
		r := fr.Relays[0]
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete",
			Msg:     fmt.Sprintf("%s did not answer for your legacy channel-sections event (%s); nothing was published", s.Relay, pipeline.Outcome(r.Status, r.Reason)),
			Details: map[string]any{"relay": s.Relay, "status": r.Status, "reason": r.Reason},
			Next:    []suggest.Command{suggest.Roster("workspace", verb, "--relay", s.Relay, "--timeout", "30s").Because("retry once the relay is back")}}
	}
	return fr, nil
}

// importSource submits the revision-zero import of src and switches only
// once the matching migration marker reads back.
func (s *Session) importSource(ctx context.Context, src *LegacySource) (*ImportResult, error) {
	showMine := []suggest.Command{suggest.Roster("workspace", "show", "--relay", s.Relay)}
	body, _, err := ImportBody(ctx, s.Signer, s.Community, s.Me, src)
	if err != nil {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "invalid-command", Err: err,
			Msg: fmt.Sprintf("legacy blob cannot be imported: %v; nothing was signed", err)}
	}
	evt, parsed, err := s.SignCommand(ctx, s.Me, body)
	if err != nil {
		return nil, err
	}
	if e := pipeline.Rejection(s.Publish(ctx, s.Relay, evt), s.Relay, "the import", map[string]any{"event_id": evt.ID}, showMine); e != nil {
		return nil, e
	}
	cur, err := s.Load(ctx)
	if err != nil || cur.Sync.Stale || !MarkerMatches(cur.Sync.Verified.Projection, src) {
		return nil, &pipeline.Error{Class: pipeline.Unverified, Code: "unverified",
			Msg:  fmt.Sprintf("%s accepted the import (event %s) but the matching migration marker did not read back; roster has not switched", s.Relay, evt.ID),
			Next: showMine}
	}
	return &ImportResult{Source: src, Event: evt, Command: parsed, After: cur}, nil
}
