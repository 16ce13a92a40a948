package membership_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/failure"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/membership"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/signer"
)

// relayScene is Alice, the lone maintainer of "widgets", on in-process
// relays, and the membership pipeline given its world as values: the read
// (a discovery.Query of those relays), the relays to publish to, a signer
// and the clock.
type relayScene struct {
	relays     []*devrelay.Relay
	aliceKey   string
	alice, bob string
	base       *nostr.Event
}

func newRelayScene(t *testing.T, n int) (*relayScene, membership.Pipeline) {
	t.Helper()
	s := &relayScene{relays: devrelay.StartN(t, n, devrelay.Options{})}
	s.aliceKey, s.alice = exampleKey("alice")
	_, s.bob = exampleKey("bob")
	var urls []string
	for _, r := range s.relays {
		urls = append(urls, r.URL())
	}
	s.base = s.announcement(t, time.Now().Unix()-60, "Widgets", urls)
	s.publish(t, s.base)
	key, err := signer.NewKeySigner(s.aliceKey, "test")
	if err != nil {
		t.Fatal(err)
	}
	src := discovery.Source{Relays: urls, Pinned: true,
		Pool: func() *relaypool.Pool { return relaypool.New(relaypool.Options{Timeout: 5 * time.Second}) }}
	sel := gitstate.Selection{Coordinate: graph.NewCoordinate(s.alice, "widgets")}
	return s, membership.Pipeline{
		Read:   discovery.Query{Source: src, Selection: sel, Viewer: s.alice}.Write(s.bob),
		Relays: relaypool.Fresh(src.Pool),
		Now:    time.Now,
		Signer: key,
	}
}

// announcement is Alice's announcement of "widgets" named name, dated at.
func (s *relayScene) announcement(t *testing.T, at int64, name string, relays []string) *nostr.Event {
	t.Helper()
	e := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(at),
		Tags: nostr.Tags{{"d", "widgets"}, {"name", name}, append(nostr.Tag{"relays"}, relays...), {"M", s.alice}, {"maintainers", s.alice}}}
	if err := e.Sign(s.aliceKey); err != nil {
		t.Fatal(err)
	}
	return e
}

// publish stores e on every relay of the scene.
func (s *relayScene) publish(t *testing.T, e *nostr.Event) {
	t.Helper()
	for _, r := range s.relays {
		if err := r.Publish(e); err != nil {
			t.Fatal(err)
		}
	}
}

// latest is the announcement relay i keeps for Alice's coordinate.
func (s *relayScene) latest(t *testing.T, i int) *nostr.Event {
	t.Helper()
	got := s.relays[i].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{s.alice}, Tags: nostr.TagMap{"d": {"widgets"}}})
	if len(got) != 1 {
		t.Fatalf("relay %d keeps %d announcements of the coordinate, want 1", i, len(got))
	}
	return got[0]
}

func (s *relayScene) urls() []string {
	var out []string
	for _, r := range s.relays {
		out = append(out, r.URL())
	}
	return out
}

func addBob(s *relayScene) preflight.Intent {
	return preflight.Intent{Action: preflight.ActAdd, Subject: s.bob}
}

// Rule (publish only what was previewed, verified against the relays):
// the change read from the relays, published to them, read back and
// re-resolved as previewed; every relay keeps the replacement naming Bob.
func TestAChangeOnRelaysIsPublishedAndVerified(t *testing.T) {
	t.Parallel()
	s, p := newRelayScene(t, 2)
	out, err := p.Run(context.Background(), addBob(s), false)
	if err != nil || !out.Verified || len(out.Published) != 1 {
		t.Fatalf("%+v %v", out, err)
	}
	for i := range s.relays {
		if got := s.latest(t, i); got.ID != out.Published[0] || !got.Tags.ContainsAny("m", []string{s.bob}) {
			t.Fatalf("relay %d keeps %v, want the replacement naming Bob", i, got)
		}
	}
}

// Rule (recheck before signing): another edit of the coordinate stored
// between the preview and the recheck stops the change as a concurrent
// change (refused), and the relays keep that edit, nothing of this run.
func TestAnEditOnTheRelaysBeforeTheRecheckIsAConcurrentChange(t *testing.T) {
	t.Parallel()
	s, p := newRelayScene(t, 1)
	theirs := s.announcement(t, time.Now().Unix()-30, "Widgets, renamed elsewhere", s.urls())
	p.BeforeRecheck = func() { s.publish(t, theirs) }
	_, err := p.Run(context.Background(), addBob(s), false)
	f := failure.Of(err)
	var mf *membership.Failure
	if f == nil || f.Code != membership.KindConcurrentChange || f.Class != failure.Refused || !asMembershipFailure(err, &mf) || len(mf.Changed) != 1 {
		t.Fatalf("%v, want a refused concurrent-change naming the one announcement that changed", err)
	}
	if got := s.latest(t, 0); got.ID != theirs.ID {
		t.Fatalf("the relay keeps %s, want only the concurrent edit %s", got.ID, theirs.ID)
	}
}

// Rule (confirmation after publishing): a newer version of the coordinate
// that the relay keeps instead of the replacement, stored while it was
// published, is superseded (published, not verified), naming the winner.
func TestANewerEditStoredWhilePublishingSupersedesTheChange(t *testing.T) {
	t.Parallel()
	s, p := newRelayScene(t, 1)
	theirs := s.announcement(t, time.Now().Unix()+60, "Widgets, edited elsewhere", s.urls())
	p.AfterPublish = func() { s.publish(t, theirs) }
	_, err := p.Run(context.Background(), addBob(s), false)
	f := failure.Of(err)
	if f == nil || f.Code != membership.KindSuperseded || f.Class != failure.Unverified || !strings.Contains(f.Msg, theirs.ID) {
		t.Fatalf("%v, want superseded by %s", err, theirs.ID)
	}
}

// Rule (a publish that cannot be read back is not success): one of two
// relays loses the connection right after the replacement is sent; the
// change is published where the other relay stored it and reported
// unverified, naming the relay that did not keep it.
func TestAChangeOneRelayDidNotKeepIsUnverified(t *testing.T) {
	t.Parallel()
	s, p := newRelayScene(t, 2)
	s.relays[1].SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool {
		return e.Kind == graph.KindAnnouncement && e.ID != s.base.ID
	}})
	out, err := p.Run(context.Background(), addBob(s), false)
	var f *membership.Failure
	if !asMembershipFailure(err, &f) || f.Code != membership.KindUnverified || f.Class != failure.Unverified {
		t.Fatalf("%+v %v, want unverified", out, err)
	}
	if !strings.Contains(strings.Join(f.Problems, "\n"), s.relays[1].URL()) {
		t.Fatalf("problems %v do not name %s", f.Problems, s.relays[1].URL())
	}
	if got := s.latest(t, 0); len(f.Outcome.Published) != 1 || got.ID != f.Outcome.Published[0] {
		t.Fatalf("relay 0 keeps %s, published %v", got.ID, f.Outcome.Published)
	}
	if got := s.latest(t, 1); got.ID != s.base.ID {
		t.Fatalf("relay 1 keeps %s, want the announcement it had", got.ID)
	}
}

// Rule (an interrupt before anything was sent publishes nothing): the
// command's context ends between the preview and the recheck; the change
// stops there (interrupted), and the relay keeps the announcement it had.
func TestAnInterruptBeforeTheRecheckPublishesNothingOnTheRelays(t *testing.T) {
	t.Parallel()
	s, p := newRelayScene(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p.BeforeRecheck = cancel
	_, err := p.Run(ctx, addBob(s), false)
	f := failure.Of(err)
	if f == nil || f.Code != membership.KindInterrupted || f.Class != failure.Interrupted || !strings.Contains(f.Msg, "nothing was published") {
		t.Fatalf("%v, want interrupted, nothing published", err)
	}
	if got := s.latest(t, 0); got.ID != s.base.ID {
		t.Fatalf("the relay keeps %s, want the announcement it had", got.ID)
	}
}

func asMembershipFailure(err error, into **membership.Failure) bool {
	f, ok := err.(*membership.Failure)
	*into = f
	return ok
}
