// Journaling a workspace command and resuming it: the exact retry NIP-SW
// makes safe, sent only on the revision the command was built on.

package sections

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pending"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// PipelineCommand is the journal pipeline of the workspace commands after
// import (grant, revoke, move, unassign, the section commands).
const PipelineCommand = "nip-sw-command"

// previewRevision is the fingerprint key of the revision a command was
// built on.
const previewRevision = "nip-sw:revision"

// JournalAddress is the journal coordinate of owner's workspace in
// community: every write of it (the import too) is kept under it, and a
// later write of the workspace is told of the unfinished ones.
func JournalAddress(community, owner string) string { return pending.Address(community, owner) }

// journalEntry is what the journal keeps of a command about to be sent:
// the command line that made it, the one relay, the revision it was built
// on and what its verification awaits.
func (s *Session) journalEntry(verb string, revision int64, evt *nostr.Event, cmd *Command) journal.Entry {
	addr := JournalAddress(s.Community, s.Owner)
	return journal.Entry{Pipeline: PipelineCommand, Command: s.Rerun, Repo: addr, Address: addr + ":" + cmd.ActionID,
		Relays: []string{s.Relay}, Preview: map[string]string{previewRevision: strconv.FormatInt(revision, 10)}, Event: evt,
		Verify: journal.Verification{What: fmt.Sprintf("the workspace's projection advances past revision %d (the %s command; NIP-SW exact retry: the same event is sent again)", revision, verb)}}
}

// sourceEntry is what the journal keeps of the empty channel-sections
// event `workspace create` publishes as its migration source, until the
// relay's OK.
func (s *Session) sourceEntry(evt *nostr.Event) journal.Entry {
	addr := JournalAddress(s.Community, s.Owner)
	return journal.Entry{Pipeline: PipelineCommand, Command: s.Rerun, Repo: addr, Address: addr + ":" + LegacyD,
		Relays: []string{s.Relay}, Preview: map[string]string{previewRevision: "0"}, Event: evt,
		Verify: journal.Verification{What: "the relay keeps the empty channel-sections event (then `roster workspace import` imports it)"}}
}

// ResumeResult is a resumed command the projection shows.
type ResumeResult struct {
	Event *nostr.Event
	// Sent: the event was sent again (false: the relay had accepted it).
	Sent bool
	// Before is the revision the command was built on.
	Before int64
	After  *Current
}

// Resume finishes the unfinished command e. The recheck reads the current
// projection: when the relay accepted the command before (its OK is in the
// journal) and the revision moved on, the write is done; when the revision
// is still the one the command was built on, the same signed event is sent
// again (an exact retry, inside the acceptance window) and the projection
// must advance. Any other revision is a concurrent change: nothing is sent.
// The entry is removed once the write is verified.
func (s *Session) Resume(ctx context.Context, e journal.Entry, now time.Time) (*ResumeResult, error) {
	if e.Event.Kind == KindLegacy {
		return s.resumeSource(ctx, e, now)
	}
	base, err := strconv.ParseInt(e.Preview[previewRevision], 10, 64)
	if err != nil {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "pending-incomplete",
			Msg: fmt.Sprintf("the unfinished write %s does not say which revision its command was built on; nothing was sent", e.Write)}
	}
	cur, err := s.Load(ctx)
	if err != nil {
		return nil, err
	}
	if err := cur.Sync.WriteBasis(); err != nil {
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "stale", Err: err, Msg: err.Error() + "; nothing was sent",
			Details: map[string]any{"relay": s.Relay}, Next: []suggest.Command{s.show()}}
	}
	held := pipeline.Held(e)
	done := func(after *Current, sent bool) (*ResumeResult, error) {
		if s.Journal != nil {
			_ = s.Journal.Finish(e.Write)
		}
		return &ResumeResult{Event: e.Event, Sent: sent, Before: base, After: after}, nil
	}
	switch {
	case cur.W.Revision > base && slices.Contains(held, s.Relay):
		return done(cur, false)
	case cur.W.Revision != base:
		return nil, pipeline.Changed(e, held, fmt.Sprintf("the workspace moved from revision %d to %d", base, cur.W.Revision), s.show())
	case journal.Expired(e.Event, now):
		return nil, pipeline.Expired(e, held, s.show())
	}
	rep := s.Publish(ctx, s.Relay, e.Event)
	if rep.OK && s.Journal != nil {
		_ = s.Journal.Acked(e.Write, e.Seq, rep.URL)
	}
	details := map[string]any{"relay": s.Relay, "event_id": e.Event.ID, "journal": e.Write}
	show := []suggest.Command{s.show()}
	if pe := pipeline.Rejection(rep, s.Relay, "the command", details, show); pe != nil {
		pe.Next = append(pe.Next, pipeline.PendingCommands(e.Write)...)
		return nil, pe
	}
	after, err := s.Load(ctx)
	if err != nil || after.Sync.Stale || after.W.Revision <= base {
		return nil, &pipeline.Error{Class: pipeline.Unverified, Code: "unverified", Details: details, Next: append(show, pipeline.PendingCommands(e.Write)...),
			Msg: fmt.Sprintf("%s accepted the command (event %s) again but its projection does not show it yet", s.Relay, e.Event.ID)}
	}
	return done(after, true)
}

// resumeSource finishes the empty channel-sections event of an interrupted
// `workspace create`: done when the relay serves it; sent again only while
// the relay shows no workspace and no other channel-sections event of the
// owner, inside the acceptance window.
func (s *Session) resumeSource(ctx context.Context, e journal.Entry, now time.Time) (*ResumeResult, error) {
	held := pipeline.Held(e)
	done := func(sent bool) (*ResumeResult, error) {
		if s.Journal != nil {
			_ = s.Journal.Finish(e.Write)
		}
		return &ResumeResult{Event: e.Event, Sent: sent}, nil
	}
	fr, err := s.fetchLegacy(ctx, "create")
	if err != nil {
		return nil, err
	}
	for _, got := range fr.Events {
		if got.ID == e.Event.ID {
			return done(false)
		}
	}
	for _, got := range fr.Events {
		if got.Kind == KindLegacy && got.PubKey == s.Me && got.Tags.GetD() == LegacyD {
			return nil, pipeline.Changed(e, held, fmt.Sprintf("%s holds another channel-sections event of yours (%s)", s.Relay, got.ID), s.show())
		}
	}
	if err := s.revisionZero(ctx); err != nil {
		var pe *pipeline.Error
		if errors.As(err, &pe) && pe.Code == "already-imported" {
			return nil, pipeline.Changed(e, held, "the workspace was imported", s.show())
		}
		return nil, err
	}
	if journal.Expired(e.Event, now) {
		return nil, pipeline.Expired(e, held, s.show())
	}
	rep := s.Publish(ctx, s.Relay, e.Event)
	details := map[string]any{"relay": s.Relay, "event_id": e.Event.ID, "journal": e.Write}
	if pe := pipeline.Rejection(rep, s.Relay, "the empty channel-sections event", details, nil); pe != nil {
		pe.Next = append(pe.Next, pipeline.PendingCommands(e.Write)...)
		return nil, pe
	}
	return done(true)
}
