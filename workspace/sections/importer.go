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
	// SourceEventID and SourceHash are the migration marker.
	SourceEventID string
	SourceHash    string
	Event         *nostr.Event
	Command       *Command
	After         *Current
	// Resumed is true when an earlier attempt's stored command was used:
	// replayed byte for byte, or found already applied (Replayed false).
	Resumed  bool
	Replayed bool
}

// Import migrates the signer's own legacy blob (the session's owner must be
// its signer): the workspace must be at revision zero with no marker.
// Refusals and failures are *pipeline.Error, signer failures
// *pipeline.SignerError.
func (s *Session) Import(ctx context.Context) (*ImportResult, error) {
	if res, resumed, err := s.resume(ctx); resumed {
		return res, err
	}
	if err := s.revisionZero(ctx); err != nil {
		return nil, err
	}
	fr, err := s.fetchLegacy(ctx, "import")
	if err != nil {
		return nil, err
	}
	src, err := NewestLegacy(ctx, s.Signer, s.Me, fr.Events)
	if err != nil {
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "no-legacy", Err: err, Msg: fmt.Sprintf("%s; nothing to import", ruleMessage(err)),
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
	if res, resumed, err := s.resume(ctx); resumed {
		return res, err
	}
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
	// Kept until the relay's OK: a lost answer is resumed with this event.
	kept, err := pipeline.Keep(s.Journal, s.sourceEntry(src.Event))
	if err != nil {
		return nil, err
	}
	details := map[string]any{"relay": s.Relay, "event_id": src.Event.ID}
	rep := s.Publish(ctx, s.Relay, src.Event)
	var rejected error
	if e := pipeline.Rejection(rep, s.Relay, "the empty channel-sections event", details, nil); e != nil {
		rejected = e
	}
	if err := kept.End(rep, rejected); err != nil {
		return nil, err
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
			Next:    []suggest.Command{retryOn(suggest.Roster("workspace", verb, "--relay", s.Relay), r.Status)}}
	}
	return fr, nil
}

// importSource signs the revision-zero import of src, keeps it (when the
// session has a pending store) before anything is sent, and submits it.
func (s *Session) importSource(ctx context.Context, src *LegacySource) (*ImportResult, error) {
	body, _, err := ImportBody(ctx, s.Signer, s.Community, s.Me, src)
	if err != nil {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "invalid-command", Err: err,
			Msg: fmt.Sprintf("legacy blob cannot be imported: %v; nothing was signed", err)}
	}
	evt, parsed, err := s.SignCommand(ctx, s.Me, body)
	if err != nil {
		return nil, err
	}
	if s.Pending != nil {
		if err := s.Pending.Keep(s.Community, s.Me, evt); err != nil {
			return nil, &pipeline.Error{Class: pipeline.Failure, Code: "pending-unwritable", Err: err,
				Msg: fmt.Sprintf("cannot keep the signed import for a retry (%v); nothing was sent", err)}
		}
	}
	return s.submitImport(ctx, evt, parsed, false)
}

// submitImport publishes the signed import evt and switches only once the
// matching migration marker reads back; then the kept command is dropped.
// A relay's refusal committed nothing and would be repeated, so the kept
// command is dropped too (a retry builds a new one); rate-limited and an
// unconfirmed answer keep it for the retry.
func (s *Session) submitImport(ctx context.Context, evt *nostr.Event, cmd *Command, replay bool) (*ImportResult, error) {
	showMine := []suggest.Command{suggest.Roster("workspace", "show", "--relay", s.Relay)}
	retry := suggest.Roster("workspace", "import", "--relay", s.Relay).Because("replays the same signed import until its marker reads back")
	imp := cmd.Body.(*Import)
	details := map[string]any{"event_id": evt.ID, "action_id": cmd.ActionID}
	if e := pipeline.Rejection(s.Publish(ctx, s.Relay, evt), s.Relay, "the import", details, showMine); e != nil {
		if e.Class == pipeline.Refused {
			s.dropPending()
		} else if s.Pending != nil {
			e.Next = append([]suggest.Command{retry}, e.Next...)
		}
		return nil, e
	}
	cur, err := s.Load(ctx)
	if err != nil || cur.Sync.Stale || !markerOf(cur.Sync.Verified.Projection, imp) {
		next := showMine
		if s.Pending != nil {
			next = append([]suggest.Command{retry}, showMine...)
		}
		return nil, &pipeline.Error{Class: pipeline.Unverified, Code: "unverified", Details: details,
			Msg:  fmt.Sprintf("%s accepted the import (event %s) but the matching migration marker did not read back; roster has not switched", s.Relay, evt.ID),
			Next: next}
	}
	s.dropPending()
	return &ImportResult{SourceEventID: imp.SourceEventID, SourceHash: imp.SourceHash, Event: evt, Command: cmd, After: cur,
		Resumed: replay, Replayed: replay}, nil
}

// resume finishes an earlier attempt whose signed import is still kept:
// its marker already reads back (done, nothing sent), or the relay shows no
// workspace yet (the exact same event is sent again: NIP-SW's exact retry,
// and Buzz's relay dedupes by event id too), or another import won (the
// kept one is dropped, and the refusal says so). resumed is false when
// nothing is kept.
func (s *Session) resume(ctx context.Context) (res *ImportResult, resumed bool, err error) {
	if s.Pending == nil {
		return nil, false, nil
	}
	evt, err := s.Pending.Pending(s.Community, s.Me)
	if err != nil {
		return nil, true, &pipeline.Error{Class: pipeline.Failure, Code: "pending-unreadable", Err: err,
			Msg: fmt.Sprintf("the import kept from an earlier attempt cannot be used (%v); nothing was sent. Remove that file to build a new import", err)}
	}
	if evt == nil {
		return nil, false, nil
	}
	cmd, err := ParseCommand(evt)
	if err != nil || cmd.Kind != KindImport || cmd.Owner != s.Me || evt.PubKey != s.Me {
		return nil, true, &pipeline.Error{Class: pipeline.Failure, Code: "pending-unreadable", Err: err,
			Msg: fmt.Sprintf("the import kept from an earlier attempt (event %s) is not your import of this workspace; nothing was sent. Remove it to build a new import", evt.ID)}
	}
	imp := cmd.Body.(*Import)
	cur, err := s.Load(ctx)
	var pe *pipeline.Error
	switch {
	case err == nil && cur.Sync.Stale:
		return nil, true, &pipeline.Error{Class: pipeline.Incomplete, Code: "stale", Err: ErrStaleBasis,
			Msg: fmt.Sprintf("%v; the import kept from an earlier attempt (event %s) is sent again once the relay answers", ErrStaleBasis, evt.ID)}
	case err == nil && markerOf(cur.Sync.Verified.Projection, imp):
		s.dropPending()
		return &ImportResult{SourceEventID: imp.SourceEventID, SourceHash: imp.SourceHash, Event: evt, Command: cmd, After: cur, Resumed: true}, true, nil
	case err == nil:
		s.dropPending()
		return nil, true, &pipeline.Error{Class: pipeline.Refused, Code: "already-imported",
			Msg:     fmt.Sprintf("your workspace on %s was imported from another source (revision %d), not by the import kept from an earlier attempt (event %s), which is dropped", s.Community, cur.W.Revision, evt.ID),
			Details: map[string]any{"migration": cur.Sync.Verified.Projection.Migration, "dropped_event_id": evt.ID},
			Next:    []suggest.Command{suggest.Roster("workspace", "show", "--relay", s.Relay)}}
	case errors.As(err, &pe) && pe.Code == "no-projection":
		res, err := s.submitImport(ctx, evt, cmd, true)
		return res, true, err
	default:
		return nil, true, err
	}
}

func (s *Session) dropPending() {
	if s.Pending != nil {
		_ = s.Pending.Drop(s.Community, s.Me)
	}
}

// markerOf reports whether projection p carries the migration marker imp
// sets.
func markerOf(p *Projection, imp *Import) bool {
	return p != nil && p.Migration != nil && p.Migration.SourceEventID == imp.SourceEventID && p.Migration.SourceHash == imp.SourceHash
}
