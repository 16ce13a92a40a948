package projects_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/pipeline"
	"github.com/roster-cli/roster/workspace/projects"
)

// Rule (an owner's update replaces only the identity it was built on):
// the identity is read again right before the update is sent. Here the
// owner's other device published a newer identity (another description)
// while this update was being signed, a second older than the update; sent,
// the update would replace it and its edit would be lost unseen. The
// update stops instead: refused (concurrent-change), nothing sent, the
// other identity in effect, and the journal keeps no entry for an event
// no relay was sent.
func TestAnIdentityUpdatedElsewhereWhileSigningStopsTheUpdate(t *testing.T) {
	w := newPCRelay(t)
	in := w.identityInput(t, pOwnerSK, nil)
	in.Journal, in.Rerun = journal.Open(t.TempDir()), []string{"project", "update", w.coord.D, "--name", "Renamed"}
	var theirs *nostr.Event
	sign := in.Sign
	in.Sign = func(ctx context.Context, e *nostr.Event) error {
		if e.Kind == projects.KindIdentity && theirs == nil {
			theirs = &nostr.Event{Kind: projects.KindIdentity, CreatedAt: e.CreatedAt - 1,
				Tags: nostr.Tags{{"d", w.coord.D}, {"name", "P"}, {"description", "from the phone"}}}
			w.publish(t, pOwnerSK, theirs)
		}
		return sign(ctx, e)
	}
	_, err := projects.Update(context.Background(), in, projects.Fields{Name: ptr("Renamed")})
	var pe *pipeline.Error
	if !errors.As(err, &pe) || pe.Code != pipeline.CodeConcurrentChange || pe.Class != pipeline.Refused || len(pe.Next) == 0 {
		t.Fatalf("got %v, want a refused concurrent-change naming the rerun", err)
	}
	if got := w.latestIdentity(t); got.ID != theirs.ID {
		t.Fatalf("the relay's latest identity is %s (%v), want the one published meanwhile (%s)", got.ID, got.Tags, theirs.ID)
	}
	if ws, problems, err := in.Journal.List(); err != nil || len(problems) > 0 || len(ws) != 0 {
		t.Fatalf("an update sent to no relay stays in the journal: %+v %v %v", ws, problems, err)
	}
}

// unfinishedAfterSigning is relays whose reads, once the update is signed,
// end before the relay's EOSE (a relay that timed out mid-answer).
type unfinishedAfterSigning struct {
	pipeline.Relays
	signed *bool
}

func (r unfinishedAfterSigning) Fetch(ctx context.Context, relays []string, filters ...nostr.Filter) *relaypool.FetchResult {
	res := r.Relays.Fetch(ctx, relays, filters...)
	if *r.signed {
		res.Complete = false
	}
	return res
}

// Rule (fail closed: a comparison that could not be made is a failure):
// when the relay does not finish answering the read right before the
// send, the update is not sent on what it did return (incomplete, exit 4).
func TestAnIdentityReadAgainWithoutAnEndStopsTheUpdate(t *testing.T) {
	w := newPCRelay(t)
	in := w.identityInput(t, pOwnerSK, nil)
	before := w.latestIdentity(t)
	signed := false
	in.Relays = unfinishedAfterSigning{Relays: in.Relays, signed: &signed}
	sign := in.Sign
	in.Sign = func(ctx context.Context, e *nostr.Event) error {
		signed = true
		return sign(ctx, e)
	}
	_, err := projects.Update(context.Background(), in, projects.Fields{Name: ptr("Renamed")})
	var pe *pipeline.Error
	if !errors.As(err, &pe) || pe.Class != pipeline.Incomplete {
		t.Fatalf("got %v, want an incomplete read that sends nothing", err)
	}
	if got := w.latestIdentity(t); got.ID != before.ID {
		t.Fatalf("the relay's latest identity is %s, want the one before (%s): nothing sent", got.ID, before.ID)
	}
}
