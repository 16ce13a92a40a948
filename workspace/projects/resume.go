// Journaling a project write (an identity, its deletion, a change) and
// resuming it: the same signed event, sent again only when the Project
// State it was built on is still the current one and the event is inside
// the relay's timestamp-drift window (NIP-PC's bound on exact replays).

package projects

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// PipelineProject is the journal pipeline of NIP-PC writes.
const PipelineProject = "nip-pc"

// The fingerprint keys of a project write: the Project State revision it
// was built on and the identity and change events that state named.
const (
	previewRevision = "nip-pc:revision"
	previewIdentity = "nip-pc:identity"
	previewChange   = "nip-pc:change"
)

// journalEntry is what the journal keeps of a project event about to be
// sent to relay: the command line that made it, the state it was built on
// (nil: none, a first create) and what its verification awaits.
func journalEntry(c Coordinate, relay string, rerun []string, before *State, evt *nostr.Event, what string) journal.Entry {
	preview := map[string]string{previewRevision: "0"}
	if before != nil {
		preview[previewRevision] = strconv.FormatInt(before.Revision, 10)
		if before.IdentityEvent != "" {
			preview[previewIdentity] = before.IdentityEvent
		}
		if before.ChangeEvent != "" {
			preview[previewChange] = before.ChangeEvent
		}
	}
	return journal.Entry{Pipeline: PipelineProject, Command: rerun, Repo: c.String(),
		Address: fmt.Sprintf("%s:%d", c.String(), evt.Kind), Relays: []string{relay}, Preview: preview, Event: evt,
		Verify: journal.Verification{What: fmt.Sprintf("the relay's Project State shows %s (event %s) at a newer revision than %s", what, evt.ID, preview[previewRevision])}}
}

// applied reports whether st shows evt as the write that produced it (or,
// for an identity, as the current identity).
func applied(st *State, evt *nostr.Event) bool {
	if st == nil {
		return false
	}
	return st.ChangeEvent == evt.ID || evt.Kind == KindIdentity && !st.Deleted && st.IdentityEvent == evt.ID
}

// ResumeInput is what resuming a project write needs.
type ResumeInput struct {
	Relays  pipeline.Relays
	Publish pipeline.Publish
	// Journal holds the entry; it is removed once the write is verified.
	Journal *journal.Dir
	Now     time.Time
}

// ResumeResult is a resumed project write the Project State shows.
type ResumeResult struct {
	Coord Coordinate
	Relay string
	Event *nostr.Event
	// Sent: the event was sent again (false: the state already showed it).
	Sent  bool
	After ReadResult
}

// Resume finishes the unfinished project write e. The recheck reads the
// relay's Project State: when it already shows the event, the write is
// done; when it is still the state the event was built on (the same
// revision, identity and last change) and the event is inside the
// acceptance window, the same signed event is sent again and must show;
// otherwise nothing is sent (concurrent-change, pending-expired), and the
// refusal says which relays hold the event and offers the command to rerun.
func Resume(ctx context.Context, in ResumeInput, e journal.Entry) (*ResumeResult, error) {
	c, err := ParseCoordinate(e.Repo)
	if err != nil || len(e.Relays) != 1 {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "pending-incomplete",
			Msg: fmt.Sprintf("the unfinished write %s names no project and relay roster can read (%q); nothing was sent", e.Write, e.Repo)}
	}
	relay := e.Relays[0]
	base, err := strconv.ParseInt(e.Preview[previewRevision], 10, 64)
	if err != nil {
		return nil, &pipeline.Error{Class: pipeline.Refused, Code: "pending-incomplete",
			Msg: fmt.Sprintf("the unfinished write %s does not say which Project State it was built on; nothing was sent", e.Write)}
	}
	show := showOn(c, relay)
	rd := Read(ctx, in.Relays, []string{relay}, c)
	if !rd.Complete {
		rr := rd.Relays[0]
		return nil, &pipeline.Error{Class: pipeline.Incomplete, Code: "incomplete",
			Msg:  fmt.Sprintf("%s did not answer for project %s (%s); nothing was sent", relay, c, pipeline.Outcome(rr.Status, rr.Reason)),
			Next: []suggest.Command{show}}
	}
	done := func(after ReadResult, sent bool) (*ResumeResult, error) {
		if in.Journal != nil {
			_ = in.Journal.Finish(e.Write)
		}
		return &ResumeResult{Coord: c, Relay: relay, Event: e.Event, Sent: sent, After: after}, nil
	}
	st := rd.Best
	if applied(st, e.Event) {
		return done(rd, false)
	}
	holding := held(ctx, in.Relays, relay, e)
	var rev int64
	var ident, change string
	if st != nil {
		rev, ident, change = st.Revision, st.IdentityEvent, st.ChangeEvent
	}
	if rev != base || ident != e.Preview[previewIdentity] || change != e.Preview[previewChange] {
		return nil, pipeline.Changed(e, holding, fmt.Sprintf("project %s moved from revision %d to %d on %s", c, base, rev, relay), show)
	}
	if journal.Expired(e.Event, in.Now) {
		return nil, pipeline.Expired(e, holding, show)
	}
	rep := in.Publish(ctx, relay, e.Event)
	if rep.OK && in.Journal != nil {
		_ = in.Journal.Acked(e.Write, e.Seq, rep.URL)
	}
	details := map[string]any{"coordinate": c.String(), "relay": relay, "event_id": e.Event.ID, "journal": e.Write}
	if pe := pipeline.Rejection(rep, relay, "the event", details, []suggest.Command{show}); pe != nil {
		pe.Next = append(pe.Next, pipeline.PendingCommands(e.Write)...)
		return nil, pe
	}
	after, err := Current(ctx, in.Relays, relay, c)
	if err != nil || after.Best.Revision <= base || !applied(after.Best, e.Event) {
		return nil, &pipeline.Error{Class: pipeline.Unverified, Code: "unverified", Details: details,
			Next: append([]suggest.Command{show}, pipeline.PendingCommands(e.Write)...),
			Msg:  fmt.Sprintf("%s accepted the event %s again but its Project State does not show it yet", relay, e.Event.ID)}
	}
	return done(after, true)
}

// held are the relays known to hold e's event: those the journal recorded
// as accepting it, and relay when it serves the event by id.
func held(ctx context.Context, r pipeline.Relays, relay string, e journal.Entry) []string {
	out := pipeline.Held(e)
	if slices.Contains(out, relay) {
		return out
	}
	for _, got := range r.Fetch(ctx, []string{relay}, nostr.Filter{IDs: []string{e.Event.ID}}).Events {
		if got.ID == e.Event.ID {
			return append(out, relay)
		}
	}
	return out
}
