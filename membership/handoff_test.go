package membership_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
)

// Rule (the removal of the state author hands the state to the remover):
// Bob, a confirmed co-maintainer, published the state in effect; Alice
// removes him. The pipeline publishes the same refs as Alice's state
// before the removal, both reach the relay, and the repository resolves
// Alice's handoff: the state does not change with the membership.
func TestRemovingTheStateAuthorPublishesTheHandoffFirst(t *testing.T) {
	t.Parallel()
	s, p := newRelayScene(t, 1)
	bobKey, _ := exampleKey("bob")
	now := time.Now().Unix()
	bound := fmt.Sprint(now - 200)
	ours := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(now - 50),
		Tags: nostr.Tags{{"d", "widgets"}, {"name", "Widgets"}, append(nostr.Tag{"relays"}, s.urls()...), {"M", s.alice}, {"m", s.bob, bound}, {"maintainers", s.alice, s.bob}}}
	his := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(now - 49),
		Tags: nostr.Tags{{"d", "widgets"}, {"name", "Widgets"}, {"M", s.alice, bound}, {"m", s.bob, bound}, {"maintainers", s.alice, s.bob}}}
	oid := strings.Repeat("ab", 20)
	state := &nostr.Event{Kind: graph.KindState, CreatedAt: nostr.Timestamp(now - 48),
		Tags: nostr.Tags{{"d", "widgets"}, {"HEAD", "ref: refs/heads/main"}, {"refs/heads/main", oid}}}
	if err := ours.Sign(s.aliceKey); err != nil {
		t.Fatal(err)
	}
	for _, e := range []*nostr.Event{his, state} {
		if err := e.Sign(bobKey); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range []*nostr.Event{ours, his, state} {
		s.publish(t, e)
	}
	out, err := p.Run(context.Background(), preflight.Intent{Action: preflight.ActRemove, Subject: s.bob}, false)
	if err != nil || !out.Verified {
		t.Fatalf("%+v %v", out, err)
	}
	if !out.Before.Resolution.Confirmed(s.bob) || out.Before.StateEvent == nil || out.Before.StateEvent.ID != state.ID {
		t.Fatalf("before the removal: Bob confirmed %v, state %v; want Bob confirmed and his state in effect", out.Before.Resolution.Confirmed(s.bob), out.Before.StateEvent)
	}
	if out.State == nil || out.State.PubKey != s.alice || out.State.Tags.GetFirst([]string{"refs/heads/main"}).Value() != oid {
		t.Fatalf("handoff %v, want Alice's state with main at %s", out.State, oid)
	}
	if out.Plan.State.Publish == nil || out.Plan.State.Publish.Reason != preflight.PublishHandoff {
		t.Fatalf("plan publishes %+v, want the handoff", out.Plan.State.Publish)
	}
	if got := s.relays[0].Stored(nostr.Filter{IDs: []string{out.State.ID}}); len(got) != 1 {
		t.Fatalf("the relay does not keep the handoff %s", out.State.ID)
	}
	if out.After == nil || out.After.StateEvent == nil || out.After.StateEvent.ID != out.State.ID {
		t.Fatalf("after the removal the repository resolves %v, want the handoff %s", out.After.StateEvent, out.State.ID)
	}
	// The removal is the relay's latest, and Bob no longer maintains it.
	if got := s.latest(t, 0); got.ID != out.Published[len(out.Published)-1] || out.After.Resolution.Confirmed(s.bob) {
		t.Fatalf("the relay keeps %s, maintainers %v; want the removal, without Bob", got.ID, out.After.Resolution.Maintainers)
	}
}
