// Submitting a project change: read, check, sign, submit, read back,
// retrying once on a conflict.

package projects

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/suggest"
	"github.com/roster-cli/roster/workspace/pipeline"
)

// ChangeInput is one related-channel change on the one relay that hosts the
// project's community.
type ChangeInput struct {
	Relays  pipeline.Relays
	Publish pipeline.Publish
	// Sign signs as Actor (a signer.Signer's SignEvent).
	Sign  func(context.Context, *nostr.Event) error
	Actor string
	Relay string
	Coord Coordinate
	Patch Patch
	// Now is the created_at of the change.
	Now func() nostr.Timestamp
	// BeforeSign, when set (tests only), runs after the change has been
	// checked against the state it read and before it is signed.
	BeforeSign func(attempt int)
	// Journal keeps each signed change from before it is sent until the
	// read-back shows it (nil: none is kept); Rerun is the command that
	// made the write, as words after "roster", kept with it.
	Journal *journal.Dir
	Rerun   []string
}

// ChangeResult is a change the relay committed and the read-back shows.
type ChangeResult struct {
	// Before is the state the committed change was checked against.
	Before *State
	// After is the read-back; After.Best shows the change.
	After ReadResult
	// EventID is the committed change event.
	EventID string
	// Retried is true when a conflict made roster re-read and retry once.
	Retried bool
	// Authority is how the committed attempt's authority was checked
	// before signing (BasisUnverifiable: the relay alone decided).
	Authority CheckResult
}

// Change reads, checks, signs, submits and reads back one change, retrying
// once on a conflict. Refusals and failures are *pipeline.Error, signer
// failures *pipeline.SignerError.
func Change(ctx context.Context, in ChangeInput) (*ChangeResult, error) {
	c, relay := in.Coord, in.Relay
	show := []suggest.Command{showOn(c, relay)}
	for attempt := 0; attempt < 2; attempt++ {
		rd, err := Current(ctx, in.Relays, relay, c)
		if err != nil {
			return nil, err
		}
		st := rd.Best
		auth, err := Check(ctx, in.Relays, relay, rd.Relays[0].Self, in.Actor, st, in.Patch)
		if err != nil {
			return nil, err
		}
		if in.BeforeSign != nil {
			in.BeforeSign(attempt)
		}
		evt, err := BuildChange(c, st.Revision, in.Patch, in.Now())
		if err != nil {
			return nil, err
		}
		if err := in.Sign(ctx, evt); err != nil {
			return nil, pipeline.Signed(err)
		}
		kept, err := pipeline.Keep(in.Journal, journalEntry(c, relay, in.Rerun, st, evt, "the change"))
		if err != nil {
			return nil, err
		}
		rep := in.Publish(ctx, relay, evt)
		kept.Answered(rep)
		if !rep.OK && strings.HasPrefix(rep.Message, "conflict:") {
			// A conflict committed nothing: the entry goes.
			err := &pipeline.Error{Class: pipeline.Refused, Code: pipeline.CodeConflict,
				Msg:     fmt.Sprintf("the project changed again while roster retried, so nothing was committed: %s", rep.Message),
				Details: map[string]any{"coordinate": c.String(), "relay": relay, "expected_revision": st.Revision},
				Next:    show}
			if kept.End(rep, err); attempt == 0 {
				continue // another change committed first: re-read, re-check, retry once
			}
			return nil, err
		}
		res, err := in.confirm(ctx, st, evt, auth, rep, attempt)
		return res, kept.End(rep, err)
	}
	return nil, errors.New("unreachable")
}

// confirm classifies the relay's answer to the change and reads the
// Project State back until it shows the whole patch.
func (in ChangeInput) confirm(ctx context.Context, st *State, evt *nostr.Event, auth CheckResult, rep relaypool.PublishReport, attempt int) (*ChangeResult, error) {
	c, relay := in.Coord, in.Relay
	show := []suggest.Command{showOn(c, relay)}
	details := map[string]any{"coordinate": c.String(), "relay": relay, "event_id": evt.ID}
	if e := pipeline.Rejection(rep, relay, "the change", details, show); e != nil {
		if auth.Basis == BasisUnverifiable && e.Class == pipeline.Refused {
			// roster could not check the roles; the relay's refusal is
			// the verdict: say who may in any case.
			e.Msg += "; " + auth.Note
			e.Next = append(ChangeSuggestions(c, in.Patch, relay, c.Owner),
				suggest.Roster("group", "show", st.Document.HomeChannel, "--relay", relay), showOn(c, relay))
		}
		return nil, e
	}
	after, err := Current(ctx, in.Relays, relay, c)
	if err != nil || after.Best.Revision <= st.Revision || !Applied(after.Best.Document, in.Patch) {
		return nil, &pipeline.Error{Class: pipeline.Unverified, Code: "unverified", Details: details, Next: show,
			Msg: fmt.Sprintf("%s accepted the change (event %s) but its Project State does not show it yet", relay, evt.ID)}
	}
	return &ChangeResult{Before: st, After: after, EventID: evt.ID, Retried: attempt > 0, Authority: auth}, nil
}

// Applied reports whether doc shows the whole patch.
func Applied(doc Document, p Patch) bool {
	for _, ch := range p.Add {
		if !doc.Related(ch) {
			return false
		}
	}
	for _, ch := range p.Remove {
		if doc.Related(ch) {
			return false
		}
	}
	return true
}
