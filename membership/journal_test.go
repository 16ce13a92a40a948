package membership

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
)

// journaled wraps the world's delivery: it records whether the journal held
// the event, byte for byte, when the relay was sent it.
func journaled(t *testing.T, w *world, j *journal.Dir, inJournal *[]bool) func(context.Context, []string, *nostr.Event, relaypool.DeliverOptions) *relaypool.Delivery {
	return func(ctx context.Context, relays []string, evt *nostr.Event, o relaypool.DeliverOptions) *relaypool.Delivery {
		writes, _, err := j.List()
		held := false
		for _, wr := range writes {
			for _, e := range wr.Entries {
				held = held || err == nil && string(e.Event.Serialize()) == string(evt.Serialize()) && e.Event.Sig == evt.Sig
			}
		}
		*inJournal = append(*inJournal, held)
		d := w.deliver(ctx, relays, evt, o)
		if o.Answered != nil {
			for _, r := range d.Relays {
				o.Answered(relaypool.PublishReport{URL: r.URL, OK: r.OK, Sent: r.Sent, Replied: true})
			}
		}
		return d
	}
}

// Rule (a signed event is never on a relay without roster knowing it): the
// event is in the journal before the relay is sent it, and the entry goes
// once the change is verified.
func TestASignedEventIsJournaledBeforeSendingAndForgottenOnceVerified(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	j := journal.Open(t.TempDir())
	var held []bool
	p := w.pipeline(t)
	p.Journal = j
	p.Deliver = journaled(t, w, j, &held)
	out, err := p.Run(context.Background(), addBob(t), false)
	if err != nil || !out.Verified {
		t.Fatalf("run: %v", err)
	}
	if len(held) != 1 || !held[0] {
		t.Fatalf("the journal held the event when it was sent: %v", held)
	}
	if writes, _, _ := j.List(); len(writes) != 0 || out.Journal != "" {
		t.Fatalf("a verified change left %d writes in the journal", len(writes))
	}
}

// Rule (resume sends the same bytes, only after the stored recheck): an
// unverified change stays in the journal, the next change of the
// coordinate is told of it, and resume sends the very same event to the
// relay that lacks it and forgets the entry once verified.
func TestResumeSendsTheSameEventAfterTheStoredRecheck(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: false}
	j := journal.Open(t.TempDir())
	var held []bool
	p := w.pipeline(t)
	p.Journal = j
	p.Deliver = journaled(t, w, j, &held)
	_, err := p.Run(context.Background(), addBob(t), false)
	var f *Failure
	if !errors.As(err, &f) || f.Kind != KindUnverified || f.Journal == "" {
		t.Fatalf("run: %v, want unverified with the write kept", err)
	}
	writes, _, _ := j.List()
	if len(writes) != 1 || writes[0].ID != w.published[0].ID || len(writes[0].First().Acked) != 1 {
		t.Fatalf("journal after the unverified change: %+v", writes)
	}
	var told []journal.Unfinished
	p.Notice = func(u []journal.Unfinished) { told = u }
	if _, err := p.Run(context.Background(), addBob(t), true); err != nil || len(told) != 1 || told[0].Write.ID != writes[0].ID {
		t.Fatalf("the next change was told %v (%v)", told, err)
	}
	w.keep = true
	r, err := p.Resume(context.Background(), writes[0])
	if err != nil || !r.Verified {
		t.Fatalf("resume: %v", err)
	}
	if len(w.published) != 2 || w.published[1].ID != w.published[0].ID || w.published[1].Sig != w.published[0].Sig {
		t.Fatalf("resume published %v, want the original event again", w.published)
	}
	if left, _, _ := j.List(); len(left) != 0 {
		t.Fatalf("a resumed and verified write stays in the journal: %v", left)
	}
}

// Rule (resume refuses a changed repository and a stale event): an event
// the preview used that changed since is a concurrent change and nothing
// is sent; an event older than the acceptance window is never sent again.
func TestResumeSendsNothingAfterACompetingEditOrPastTheWindow(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: false}
	j := journal.Open(t.TempDir())
	var held []bool
	p := w.pipeline(t)
	p.Journal = j
	p.Deliver = journaled(t, w, j, &held)
	if _, err := p.Run(context.Background(), addBob(t), false); err == nil {
		t.Fatal("the change verified on a relay that keeps nothing")
	}
	writes, _, _ := j.List()
	if len(writes) != 1 {
		t.Fatalf("journal: %v", writes)
	}
	sent := len(w.published)

	late := p
	late.Now = func() time.Time { return time.Unix(2000, 0).Add(journal.AcceptanceWindow + time.Minute) }
	_, err := late.Resume(context.Background(), writes[0])
	var rf *ResumeFailure
	if !errors.As(err, &rf) || rf.Kind != KindPendingExpired || len(w.published) != sent {
		t.Fatalf("late resume: %v, %d sent", err, len(w.published)-sent)
	}

	w.events = []*nostr.Event{announce(t, aliceSK, 1500, nostr.Tag{"description", "edited elsewhere"})}
	_, err = p.Resume(context.Background(), writes[0])
	if !errors.As(err, &rf) || rf.Kind != KindConcurrentChange || len(rf.Changed) != 1 || len(w.published) != sent {
		t.Fatalf("resume after a competing edit: %v, %d sent", err, len(w.published)-sent)
	}
	if len(rf.Commands) == 0 || rf.Commands[0].Argv[1] != "repo" {
		t.Fatalf("the refusal does not offer the rerun first: %v", rf.Commands)
	}
	if left, _, _ := j.List(); len(left) != 1 {
		t.Fatal("a refused resume dropped the entry")
	}
}
