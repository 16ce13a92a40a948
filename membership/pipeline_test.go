package membership

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/testkeys"
)

var (
	aliceSK = testkeys.Named("membership-test-", "alice")
	bobSK   = testkeys.Named("membership-test-", "bob")
)

const repoID = "my-repo"

func announce(t *testing.T, sk string, created int64, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	return testkeys.Sign(t, sk, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(created),
		Tags: append(nostr.Tags{{"d", repoID}, {"name", "Test"}}, tags...)})
}

// world is a pipeline whose discovery reads events, a slice the test may
// change between reads, and whose delivery records what was published.
type world struct {
	t         *testing.T
	events    []*nostr.Event
	published []*nostr.Event
	accept    bool // the relay accepts what is published
	keep      bool // ...and returns it on read-back and later reads
}

func (w *world) view(ctx context.Context) (*discovery.View, error) {
	c := graph.NewCoordinate(testkeys.Pub(w.t, aliceSK), repoID)
	evs := append([]*nostr.Event{}, w.events...)
	sources := map[string][]string{}
	for _, e := range evs {
		sources[e.ID] = []string{"ws://r"}
	}
	return &discovery.View{Selection: gitstate.Selection{Coordinate: c}, Relays: []string{"ws://r"}, Events: evs,
		Resolution: graph.Resolve(evs, c, 2000, graph.Options{}), Now: 2000,
		Fetch: &relaypool.FetchResult{Complete: true, Events: evs, Sources: sources,
			Relays: []relaypool.RelayReport{{URL: "ws://r", Status: relaypool.StatusOK, Events: len(evs), Answered: time.Now()}}}}, nil
}

func (w *world) deliver(ctx context.Context, relays []string, evt *nostr.Event, o relaypool.DeliverOptions) *relaypool.Delivery {
	d := &relaypool.Delivery{Relays: []relaypool.Delivered{{URL: relays[0], OK: w.accept, Message: "blocked: test", Sent: true}}}
	if !w.accept {
		return d
	}
	d.Accepted = 1
	w.published = append(w.published, evt)
	if o.BeforeReadBack != nil {
		o.BeforeReadBack()
	}
	if w.keep {
		w.events = append(w.events, evt)
		d.Relays[0].ReadBack = true
	}
	d.ReadBack = &relaypool.FetchResult{Complete: true}
	if o.ReadBack != nil && ctx.Err() == nil {
		// As relaypool.Deliver does: the caller makes the read-back request.
		d.ReadBack = o.ReadBack(ctx, relays, []nostr.Filter{{IDs: []string{evt.ID}}})
	}
	return d
}

func (w *world) pipeline(t *testing.T) Pipeline {
	s, err := signer.NewKeySigner(aliceSK, "env")
	if err != nil {
		t.Fatal(err)
	}
	return Pipeline{Read: readFuncs{load: w.view}, Signer: s, Relays: relayFuncs{deliver: w.deliver}, Now: func() time.Time { return time.Unix(2000, 0) }}
}

func addBob(t *testing.T) preflight.Intent {
	return preflight.Intent{Action: preflight.ActAdd, Subject: testkeys.Pub(t, bobSK)}
}

// Rule (publish only what was previewed): a dry run and a published change
// carry the same plan, and the published event is the plan's, signed by the
// preview's author and verified by re-resolution.
func TestAChangeIsPublishedAsPreviewedAndVerified(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	p := w.pipeline(t)
	dry, err := p.Run(context.Background(), addBob(t), true)
	if err != nil || dry.Refusal != nil || dry.Plan == nil || len(w.published) != 0 {
		t.Fatalf("dry run: %+v %v; published %d", dry, err, len(w.published))
	}
	out, err := p.Run(context.Background(), addBob(t), false)
	if err != nil || !out.Verified || len(out.Published) != 1 || len(w.published) != 1 {
		t.Fatalf("run: %+v %v", out, err)
	}
	if got := w.published[0]; got.PubKey != testkeys.Pub(t, aliceSK) || !got.Tags.ContainsAny("m", []string{testkeys.Pub(t, bobSK)}) {
		t.Fatalf("published %v", got)
	}
}

// Rule (no relay accepted: nothing was published) and (published but not
// read back: unverified, never success).
func TestAPublishNoRelayKeptIsNotSuccess(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}}
	_, err := w.pipeline(t).Run(context.Background(), addBob(t), false)
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindPublishFailed {
		t.Fatalf("no relay accepting: %v", err)
	}
	w = &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true}
	_, err = w.pipeline(t).Run(context.Background(), addBob(t), false)
	if !errors.As(err, &f) || f.Code != KindUnverified || len(f.Problems) == 0 || len(f.Outcome.Published) != 1 {
		t.Fatalf("accepted, not kept: %v", err)
	}
}

// Rule (verify against the preview): a re-resolution that differs from the
// preview (here Bob's acceptance lands between publishing and read-back, so
// he is confirmed, not invited) is unverified.
func TestAReResolutionThatDiffersFromThePreviewIsUnverified(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	p := w.pipeline(t)
	alice, bob := testkeys.Pub(t, aliceSK), testkeys.Pub(t, bobSK)
	p.AfterPublish = func() {
		w.events = append(w.events, announce(t, bobSK, 1500, nostr.Tag{"M", alice, "1500"}, nostr.Tag{"m", bob, "1500"},
			nostr.Tag{"maintainers", alice, bob}))
	}
	_, err := p.Run(context.Background(), addBob(t), false)
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindUnverified {
		t.Fatalf("%v", err)
	}
}

// Rule (a refusal publishes nothing and is an outcome, not an error):
// preflight's refusal comes back as the outcome's Refusal.
func TestARefusalIsAnOutcomeAndPublishesNothing(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	out, err := w.pipeline(t).Run(context.Background(), preflight.Intent{Action: preflight.ActAdd, Subject: testkeys.Pub(t, aliceSK)}, false)
	if err != nil || out.Refusal == nil || out.Refusal.Code != "self-add" || out.Plan != nil || len(w.published) != 0 {
		t.Fatalf("%+v %v", out, err)
	}
}

// Rule (an interrupt never hides what was sent): a change interrupted
// after its EVENT was sent and before the read-back is an interrupted
// Failure naming the phase, the event as published and the relays it was
// sent to, and suggests the read that shows whether it is in effect; no
// read-back or re-read is attempted.
func TestAnInterruptAfterSendingReportsWhatWasSent(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	p := w.pipeline(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var phases []string
	p.Phase = func(ph string) { phases = append(phases, ph) }
	p.AfterPublish = cancel
	reads := 0
	discover := p.Read.(readFuncs).load
	p.Read = readFuncs{load: func(ctx context.Context) (*discovery.View, error) { reads++; return discover(ctx) }}
	_, err := p.Run(ctx, addBob(t), false)
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindInterrupted || !errors.Is(f.Err, context.Canceled) {
		t.Fatalf("%v, want an interrupted failure", err)
	}
	if f.Phase != PhaseReadingBack || len(f.Sent) != 1 || f.Sent[0] != "ws://r" || len(f.Outcome.Published) != 1 || f.Outcome.Published[0] != w.published[0].ID {
		t.Fatalf("phase %q sent %v published %v", f.Phase, f.Sent, f.Outcome.Published)
	}
	if len(f.Next) == 0 || f.Next[0].Argv[1] != "repo" {
		t.Fatalf("commands %+v, want the read that checks it", f.Next)
	}
	if reads != 2 {
		t.Fatalf("%d discoveries, want 2 (preview, recheck; no re-read after the interrupt)", reads)
	}
	want := []string{PhaseDiscovering, PhaseRechecking, PhaseSigning, PhasePublishing, PhaseReadingBack}
	if !slices.Equal(phases, want) {
		t.Fatalf("phases %v, want %v", phases, want)
	}
}

// Rule (reading back costs no round of its own): with Again, the re-read
// after publishing is the read-back's request: Deliver's read-back filters
// go to Again, which the recheck and the read-back call once each; the
// only read after it is the last re-read after the cut window (its own
// round, asking the address with a since). The change is verified from
// the read-back's read.
func TestTheReReadAfterPublishingIsTheReadBacksRequest(t *testing.T) {
	w := &world{t: t, events: []*nostr.Event{announce(t, aliceSK, 100)}, accept: true, keep: true}
	p := w.pipeline(t)
	var asked [][]nostr.Filter
	discovered := 0
	p.Read = readFuncs{load: func(ctx context.Context) (*discovery.View, error) {
		discovered++
		return w.view(ctx)
	}, again: func(ctx context.Context, _ *discovery.View, also ...nostr.Filter) (*discovery.View, error) {
		asked = append(asked, also)
		return w.view(ctx)
	}}
	out, err := p.Run(context.Background(), addBob(t), false)
	if err != nil || !out.Verified {
		t.Fatalf("%+v %v", out, err)
	}
	if discovered != 1 || len(asked) != 3 || len(asked[0]) != 0 || len(asked[1]) != 1 || asked[1][0].IDs[0] != w.published[0].ID ||
		len(asked[2]) != 1 || asked[2][0].Since == nil || len(asked[2][0].IDs) != 0 {
		t.Fatalf("discovered %d times, asked again %v; want one discovery, the recheck, the read-back by id, then the address after the cut window", discovered, asked)
	}
}

// readFuncs are a test's reads of the repository: load answers every
// discovery, and again every re-ask (load too when again is nil, or when
// the earlier read has no relay answer to repeat).
type readFuncs struct {
	load  func(ctx context.Context) (*discovery.View, error)
	again func(ctx context.Context, prev *discovery.View, also ...nostr.Filter) (*discovery.View, error)
}

func (r readFuncs) Load(ctx context.Context, _ discovery.Evidence, _ int64) (*discovery.View, error) {
	return r.load(ctx)
}

func (r readFuncs) Again(ctx context.Context, prev *discovery.View, _ int64, also ...nostr.Filter) (*discovery.View, error) {
	if r.again == nil || prev.Fetch == nil {
		return r.load(ctx)
	}
	return r.again(ctx, prev, also...)
}

// relayFuncs are a test's relays: Deliver and Reask as functions (a nil
// one is never asked: the test fails if it is).
type relayFuncs struct {
	deliver func(ctx context.Context, relays []string, evt *nostr.Event, o relaypool.DeliverOptions) *relaypool.Delivery
	reask   func(ctx context.Context, prev *relaypool.FetchResult, relays []string) *relaypool.FetchResult
}

func (r relayFuncs) Deliver(ctx context.Context, relays []string, evt *nostr.Event, o relaypool.DeliverOptions) *relaypool.Delivery {
	if r.deliver == nil {
		panic("the test's relays were asked to publish")
	}
	return r.deliver(ctx, relays, evt, o)
}

func (r relayFuncs) Reask(ctx context.Context, prev *relaypool.FetchResult, relays []string) *relaypool.FetchResult {
	if r.reask == nil {
		panic("the test's relays were asked again")
	}
	return r.reask(ctx, prev, relays)
}
