package membership

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/testkeys"
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
	p.Relays = relayFuncs{deliver: journaled(t, w, j, &held)}
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
	p.Relays = relayFuncs{deliver: journaled(t, w, j, &held)}
	_, err := p.Run(context.Background(), addBob(t), false)
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindUnverified || f.Journal == "" {
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
	p.Relays = relayFuncs{deliver: journaled(t, w, j, &held)}
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
	if !errors.As(err, &rf) || rf.Code != KindPendingExpired || rf.Class != failure.Refused || len(w.published) != sent {
		t.Fatalf("late resume: %v, %d sent", err, len(w.published)-sent)
	}

	w.events = []*nostr.Event{announce(t, aliceSK, 1500, nostr.Tag{"description", "edited elsewhere"})}
	_, err = p.Resume(context.Background(), writes[0])
	if !errors.As(err, &rf) || rf.Code != KindConcurrentChange || rf.Class != failure.Refused || len(rf.Changed) != 1 || len(w.published) != sent {
		t.Fatalf("resume after a competing edit: %v, %d sent", err, len(w.published)-sent)
	}
	if len(rf.Next) == 0 || rf.Next[0].Argv[1] != "repo" {
		t.Fatalf("the refusal does not offer the rerun first: %v", rf.Next)
	}
	if left, _, _ := j.List(); len(left) != 1 {
		t.Fatal("a refused resume dropped the entry")
	}
}

// twoEventWrite journals a write of a state event and then an
// announcement (the shape of --force and the removal handoff) that the
// world's relay does not hold yet, with the world's fingerprint as its
// preview and the resolution with both events as its verification.
func twoEventWrite(t *testing.T, w *world, j *journal.Dir) journal.Write {
	t.Helper()
	alicePK := testkeys.Pub(t, aliceSK)
	state := testkeys.Sign(t, aliceSK, &nostr.Event{Kind: graph.KindState, CreatedAt: 1990,
		Tags: nostr.Tags{{"d", repoID}, {"HEAD", "ref: refs/heads/main"}, {"refs/heads/main", strings.Repeat("a", 40)}}})
	ann := announce(t, aliceSK, 1991, nostr.Tag{"description", "second"})
	preview := preflight.Fingerprint(w.events)
	after := graph.Resolve(append(append([]*nostr.Event{}, w.events...), state, ann), graph.NewCoordinate(alicePK, repoID), 2000, graph.Options{})
	ver := journal.Verification{What: "test", Lead: after.Lead, LeadSource: string(after.LeadSource),
		Maintainers: memberWords(after.Maintainers), Moderators: memberWords(after.Moderators), State: state.ID}
	repo := graph.NewCoordinate(alicePK, repoID).ATag()
	entries := []journal.Entry{
		{Pipeline: journal.PipelineMembership, Command: []string{"repo", "edit", "--force"}, Repo: repo, Address: "30618:" + alicePK + ":" + repoID,
			Relays: []string{"ws://r"}, Preview: preview, Verify: ver, Event: state},
		{Pipeline: journal.PipelineMembership, Command: []string{"repo", "edit", "--force"}, Repo: repo, Address: repo,
			Relays: []string{"ws://r"}, Preview: preview, Verify: ver, Event: ann},
	}
	if err := j.Begin(entries); err != nil {
		t.Fatal(err)
	}
	writes, _, _ := j.List()
	return writes[0]
}

// withState is the world's view with its newest state event resolved, as
// discovery resolves it.
func withState(w *world) func(ctx context.Context) (*discovery.View, error) {
	return func(ctx context.Context) (*discovery.View, error) {
		v, err := w.view(ctx)
		for _, e := range v.Events {
			if e.Kind == graph.KindState && (v.StateEvent == nil || graph.Newer(e, v.StateEvent)) {
				v.StateEvent = e
			}
		}
		return v, err
	}
}

// Rule (multi-event writes resume in order, rechecking between them): the
// state event is sent before the announcement, and a change that arrives
// after the state event stops the resume before the announcement is sent.
func TestAMultiEventWriteResumesInOrderWithTheIntermediateRecheck(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	j := journal.Open(t.TempDir())
	p := w.pipeline(t)
	p.Journal, p.Read = j, readFuncs{load: withState(w)}
	write := twoEventWrite(t, w, j)
	r, err := p.Resume(context.Background(), write)
	if err != nil || !r.Verified {
		t.Fatalf("resume: %v", err)
	}
	if len(w.published) != 2 || w.published[0].ID != write.Entries[0].Event.ID || w.published[1].ID != write.Entries[1].Event.ID {
		t.Fatalf("sent %v, want the state event then the announcement", w.published)
	}

	w2 := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	j2 := journal.Open(t.TempDir())
	p2 := w2.pipeline(t)
	p2.Journal, p2.Read = j2, readFuncs{load: withState(w2)}
	write2 := twoEventWrite(t, w2, j2)
	p2.Relays = relayFuncs{deliver: func(ctx context.Context, relays []string, evt *nostr.Event, o relaypool.DeliverOptions) *relaypool.Delivery {
		d := w2.deliver(ctx, relays, evt, o)
		if evt.Kind == graph.KindState {
			// Alice's edit from another machine lands between the two events.
			w2.events = append(w2.events, announce(t, aliceSK, 1995, nostr.Tag{"description", "edited elsewhere"}))
		}
		return d
	}}
	_, err = p2.Resume(context.Background(), write2)
	var rf *ResumeFailure
	if !errors.As(err, &rf) || rf.Code != KindConcurrentChange || rf.Class != failure.Unverified {
		t.Fatalf("resume with a change between the events: %v", err)
	}
	// The state event was stored: the failure says so, never "nothing was sent".
	if strings.Contains(rf.Msg, "nothing was sent") || !strings.Contains(rf.Msg, "this resume sent the event "+w2.published[0].ID) {
		t.Fatalf("the message hides what was stored: %s", rf.Msg)
	}
	if len(w2.published) != 1 || w2.published[0].Kind != graph.KindState {
		t.Fatalf("sent %v, want only the state event", w2.published)
	}
}
