package membership

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
)

var testSecret = nostr.GeneratePrivateKey()

func announcement(t *testing.T, at int64) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(at), Tags: nostr.Tags{{"d", "repo"}}}
	if err := evt.Sign(testSecret); err != nil {
		t.Fatal(err)
	}
	return evt
}

// previewed is an outcome whose preview used base.
func previewed(base *nostr.Event) *Outcome {
	return &Outcome{
		Intent: preflight.Intent{Action: preflight.ActFix},
		Before: &discovery.View{Selection: gitstate.Selection{Coordinate: graph.NewCoordinate(base.PubKey, "repo")}},
		Plan:   &preflight.Plan{Author: base.PubKey, Fingerprint: preflight.Fingerprint([]*nostr.Event{base})},
	}
}

func report(url string, at time.Time) relaypool.RelayReport {
	return relaypool.RelayReport{URL: url, Status: relaypool.StatusOK, Answered: at}
}

// Rule (the recheck is a consistent cut): a relay that answered the recheck
// long before the slowest one did is asked again, and what it stores by
// then counts. Here another edit reached it in between: a concurrent change.
// Answers within CutWindow of each other are one cut, asked nothing more.
func TestRecheckAsksAgainTheRelaysThatAnsweredLongBeforeTheSlowest(t *testing.T) {
	base, other := announcement(t, 100), announcement(t, 200)
	t0 := time.Now()
	res := &relaypool.FetchResult{Events: []*nostr.Event{base}, Complete: true,
		Relays: []relaypool.RelayReport{report("wss://fast", t0), report("wss://near", t0.Add(3*time.Second-CutWindow/2)), report("wss://slow", t0.Add(3*time.Second))}}
	var asked [][]string
	p := Pipeline{Relays: relayFuncs{reask: func(_ context.Context, prev *relaypool.FetchResult, relays []string) *relaypool.FetchResult {
		asked = append(asked, relays)
		return &relaypool.FetchResult{Events: []*nostr.Event{base, other}, Complete: true,
			Relays: []relaypool.RelayReport{report("wss://fast", t0.Add(3*time.Second+time.Millisecond)), prev.Relays[1], prev.Relays[2]}}
	}}}
	_, err := p.recheck(context.Background(), previewed(base), res, relaypool.LatestAnswer(res), ptr(cutRounds))
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindConcurrentChange {
		t.Fatalf("got %v, want a concurrent change", err)
	}
	if len(asked) != 1 || !slices.Equal(asked[0], []string{"wss://fast"}) {
		t.Fatalf("asked again %v, want only the relay that answered more than %s before the slowest", asked, CutWindow)
	}

	asked = nil
	together := &relaypool.FetchResult{Events: []*nostr.Event{base}, Complete: true,
		Relays: []relaypool.RelayReport{report("wss://fast", t0), report("wss://slow", t0.Add(CutWindow/2))}}
	if cut, err := p.recheck(context.Background(), previewed(base), together, relaypool.LatestAnswer(together), ptr(cutRounds)); err != nil || cut != together || asked != nil {
		t.Fatalf("answers within the window: cut %v, err %v, asked again %v; want the read as it is", cut, err, asked)
	}
}

// Rule (fail closed on a torn read): relays whose answers stay more than
// CutWindow apart however often they are asked give no consistent cut; after
// cutRounds re-asks the change stops with nothing published (exit 4), never
// publishing on answers from different moments.
func TestRecheckFailsClosedWhenTheRelaysNeverAnswerTogether(t *testing.T) {
	base := announcement(t, 100)
	t0 := time.Now()
	res := &relaypool.FetchResult{Events: []*nostr.Event{base}, Complete: true,
		Relays: []relaypool.RelayReport{report("wss://a", t0), report("wss://b", t0.Add(time.Second))}}
	reasks := 0
	p := Pipeline{Relays: relayFuncs{reask: func(_ context.Context, prev *relaypool.FetchResult, relays []string) *relaypool.FetchResult {
		reasks++
		// Whoever is asked again answers a second after the others.
		next := &relaypool.FetchResult{Events: prev.Events, Complete: true}
		later := relaypool.LatestAnswer(prev).Add(time.Second)
		for _, r := range prev.Relays {
			if slices.Contains(relays, r.URL) {
				r.Answered = later
			}
			next.Relays = append(next.Relays, r)
		}
		return next
	}}}
	_, err := p.recheck(context.Background(), previewed(base), res, relaypool.LatestAnswer(res), ptr(cutRounds))
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindInconsistentRead || len(f.Next) == 0 {
		t.Fatalf("got %v, want inconsistent-read with the rerun", err)
	}
	if reasks != cutRounds {
		t.Fatalf("%d re-asks, want %d", reasks, cutRounds)
	}
	// Rule (a write's re-asks are bounded, not each recheck's): the
	// recheck after a slow signer spends what the first one left, so one
	// change makes at most cutRounds re-asks in all.
	reasks = 0
	left := 1
	if _, err := p.recheck(context.Background(), previewed(base), res, relaypool.LatestAnswer(res), &left); !errors.As(err, &f) || f.Code != KindInconsistentRead {
		t.Fatalf("got %v, want inconsistent-read", err)
	}
	if reasks != 1 || left != 0 {
		t.Fatalf("%d re-asks with 1 left (now %d), want 1 and 0", reasks, left)
	}
}

// instantSigner signs with testSecret.
type instantSigner struct{}

func (instantSigner) PublicKey(context.Context) (string, error) {
	return nostr.GetPublicKey(testSecret)
}
func (instantSigner) SignEvent(_ context.Context, e *nostr.Event) error {
	return e.Sign(testSecret)
}
func (instantSigner) Encrypt(context.Context, string, string) (string, error) { return "", nil }
func (instantSigner) Decrypt(context.Context, string, string) (string, error) { return "", nil }
func (instantSigner) Backend() string                                         { return "test" }

// Rule (the cut is still fresh when the replacement is published): when the
// cut is older than CutWindow once the event is signed (a remote signer that
// took its time), the relays are asked again before anything is published,
// and a change they show then stops the publish.
func TestAnAgedCutIsTakenAgainBeforePublishing(t *testing.T) {
	base, other := announcement(t, 100), announcement(t, 200)
	old := time.Now().Add(-2 * CutWindow)
	cut := &relaypool.FetchResult{Events: []*nostr.Event{base}, Complete: true,
		Relays: []relaypool.RelayReport{report("wss://a", old), report("wss://b", old)}}
	rs := &editedMeanwhile{events: []*nostr.Event{base, other}, relays: []string{"wss://a", "wss://b"}}
	p := Pipeline{Signer: instantSigner{}, Relays: rs.funcs()}
	out := previewed(base)
	out.Plan.Tags = nostr.Tags{{"d", "repo"}}
	p.Now = func() time.Time { return time.Unix(300, 0) }
	err := p.signAndPublish(context.Background(), out, cut, ptr(cutRounds))
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindConcurrentChange || rs.delivered {
		t.Fatalf("got %v (delivered %v), want a concurrent change before publishing", err, rs.delivered)
	}
	if !slices.Equal(rs.asked, []string{"wss://a", "wss://b"}) {
		t.Fatalf("asked again %v, want both relays of the aged cut", rs.asked)
	}
}

// Rule (nothing of ours stored is a concurrent change, not a publish
// failure): when every relay that answered refused the replacement because
// it keeps a newer version of the coordinate, another edit came first;
// nothing was published and the rerun previews it (exit 3).
func TestReplacementRefusedForANewerVersionIsAConcurrentChange(t *testing.T) {
	base := announcement(t, 100)
	p := Pipeline{Signer: instantSigner{},
		Relays: relayFuncs{deliver: func(context.Context, []string, *nostr.Event, relaypool.DeliverOptions) *relaypool.Delivery {
			return &relaypool.Delivery{Relays: []relaypool.Delivered{{URL: "wss://a", Message: "duplicate: a newer event for this address is already stored", SupersededBy: "f00d"}}}
		}}}
	out := previewed(base)
	evt := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 300, Tags: nostr.Tags{{"d", "repo"}}}
	if err := evt.Sign(testSecret); err != nil {
		t.Fatal(err)
	}
	err := p.publish(context.Background(), out, evt, nil, func() error { return nil })
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindConcurrentChange || len(out.Published) != 0 {
		t.Fatalf("got %v, published %v; want a concurrent change with nothing published", err, out.Published)
	}
}

func ptr(n int) *int { return &n }

// Rule (the cut is still fresh when the replacement is sent, whatever aged
// it after signing): the cut was fresh once the event was signed, but
// what runs before the send (here the publishing phase's observer taking
// CutWindow; in the world the journal's sync on a busy disk) ages it. The
// relays are asked again right before the event is sent, and a change
// they show then stops the publish: nothing is sent.
func TestACutAgedAfterSigningIsTakenAgainRightBeforeTheSend(t *testing.T) {
	base, other := announcement(t, 100), announcement(t, 200)
	recent := time.Now().Add(-CutWindow / 2)
	cut := &relaypool.FetchResult{Events: []*nostr.Event{base}, Complete: true,
		Relays: []relaypool.RelayReport{report("wss://a", recent)}}
	rs := &editedMeanwhile{events: []*nostr.Event{base, other}, relays: []string{"wss://a"}}
	p := Pipeline{Signer: instantSigner{}, Relays: rs.funcs(),
		Phase: func(phase string) {
			if phase == PhasePublishing {
				time.Sleep(CutWindow)
			}
		}}
	out := previewed(base)
	out.Plan.Tags = nostr.Tags{{"d", "repo"}}
	p.Now = func() time.Time { return time.Unix(300, 0) }
	err := p.signAndPublish(context.Background(), out, cut, ptr(cutRounds))
	var f *Failure
	if !errors.As(err, &f) || f.Code != KindConcurrentChange || len(rs.asked) == 0 || rs.delivered || len(out.Published) != 0 {
		t.Fatalf("got %v (asked again %v, delivered %v, published %v), want a concurrent change before anything is sent", err, rs.asked, rs.delivered, out.Published)
	}
}

// editedMeanwhile is relays whose re-ask shows events (another edit among
// them), answered now by each of relays, and which record what they were
// asked again and whether anything was delivered.
type editedMeanwhile struct {
	events    []*nostr.Event
	relays    []string
	asked     []string
	delivered bool
}

func (r *editedMeanwhile) funcs() relayFuncs {
	return relayFuncs{
		reask: func(_ context.Context, _ *relaypool.FetchResult, relays []string) *relaypool.FetchResult {
			r.asked = append(r.asked, relays...)
			res := &relaypool.FetchResult{Events: r.events, Complete: true}
			for _, u := range r.relays {
				res.Relays = append(res.Relays, report(u, time.Now()))
			}
			return res
		},
		deliver: func(context.Context, []string, *nostr.Event, relaypool.DeliverOptions) *relaypool.Delivery {
			r.delivered = true
			return &relaypool.Delivery{}
		}}
}

// Rule (a failure after an event was stored says what was stored, exit 6):
// the state event was stored and the relays could not be read again right
// before the announcement's send, a read error or no consistent cut. That
// is partly published, naming the state event, never "nothing was
// published".
func TestACheckFailingAfterTheStateWasStoredIsPartlyPublished(t *testing.T) {
	for name, err := range map[string]error{
		"no consistent cut": inconsistentRead(previewed(announcement(t, 100)), nil, "the relays' answers stayed apart"),
		"a read error":      errors.New("relay wss://a: connection reset"),
	} {
		out := previewed(announcement(t, 100))
		out.Plan.State.Publish = &preflight.StatePublication{Reason: preflight.PublishHandoff}
		out.State = &nostr.Event{ID: "5a7e"}
		out.Published = []string{"5a7e"}
		out.StateDelivery = &relaypool.Delivery{Relays: []relaypool.Delivered{{URL: "wss://a", OK: true}}}
		var f *Failure
		got := afterState(out, err)
		if !errors.As(got, &f) || f.Code != KindPartlyPublished || f.Class != failure.Unverified ||
			!strings.Contains(f.Msg, "5a7e") || strings.Contains(f.Msg, "nothing was published") {
			t.Errorf("%s: got %v, want partly-published naming the stored state", name, got)
		}
	}
}
