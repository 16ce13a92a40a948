package discovery_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Rule (role-scoped events are read with complete evidence, verified,
// bounded, cached): a complete read keeps the targets naming the
// component's coordinates, the component's authors' actions, and a
// target author's own actions on their target; an outsider's action on
// somebody else's target, events naming another coordinate and events over
// the size bound are not kept. What was kept is in the cache.
func TestCompleteReadKeepsTheComponentsRoleScopedEvents(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{})[0]
	erinSK, frankSK := key("erin"), key("frank")
	alice := testkeys.Pub(t, aliceSK)
	ann := testkeys.Sign(t, aliceSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 100, Tags: nostr.Tags{{"d", "proj"}}})
	a := nostr.Tag{"a", "30617:" + alice + ":proj"}
	issue := testkeys.Event(t, erinSK, actions.KindIssue, 110, "it breaks", a)
	root := nostr.Tag{"e", issue.ID, "", "root"}
	byAlice := testkeys.Event(t, aliceSK, actions.KindStatusClosed, 120, "", a, root)
	byErin := testkeys.Event(t, erinSK, actions.KindStatusOpen, 130, "", a, root)
	byFrank := testkeys.Event(t, frankSK, actions.KindStatusClosed, 140, "", a, root)
	elsewhere := testkeys.Event(t, aliceSK, actions.KindStatusClosed, 150, "", nostr.Tag{"a", "30617:" + alice + ":other"}, root)
	huge := testkeys.Event(t, erinSK, actions.KindPatch, 160, strings.Repeat("x", discovery.MaxActionEventBytes), a)
	publish(t, r, ann, issue, byAlice, byErin, byFrank, elsewhere, huge)
	home := t.TempDir()
	v, err := discovery.Load(context.Background(), cachedSource(t, home, r.URL()), aliceSelection(t), nil, discovery.Complete, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range v.Actions {
		got = append(got, e.ID)
	}
	want := []string{byErin.ID, byAlice.ID, issue.ID}
	if !slices.Equal(got, want) {
		t.Fatalf("actions %v, want %v (erin's status, alice's status, the issue)", got, want)
	}
	if v.ActionsDropped != 1 {
		t.Fatalf("dropped %d, want the oversized patch", v.ActionsDropped)
	}
	c, err := cache.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cached, err := c.Query(nostr.Filter{IDs: want})
	if err != nil || len(cached) != len(want) {
		t.Fatalf("cached %d of %d: %v", len(cached), len(want), err)
	}
	// A partial read (roster repo) does not ask for them.
	p, err := discovery.Load(context.Background(), cachedSource(t, t.TempDir(), r.URL()), aliceSelection(t), nil, discovery.Partial, "", 1000)
	if err != nil || p.Actions != nil {
		t.Fatalf("partial read: %v %v", p.Actions, err)
	}
}

// Rule (bounded): at most MaxActionEvents are kept, newest first, and the
// rest are counted as dropped.
func TestSelectActionsKeepsTheNewestUpToTheBound(t *testing.T) {
	alice := testkeys.Pub(t, aliceSK)
	a := nostr.Tag{"a", "30617:" + alice + ":proj"}
	var evs []*nostr.Event
	for i := 0; i < discovery.MaxActionEvents+2; i++ {
		evs = append(evs, &nostr.Event{ID: strings.Repeat("0", 60) + string(rune('a'+i%6)) + "000", Kind: actions.KindStatusClosed, CreatedAt: nostr.Timestamp(i), Tags: nostr.Tags{a}})
	}
	got, dropped := discovery.SelectActions(evs, "proj", []string{alice})
	if len(got) != discovery.MaxActionEvents || dropped != 2 || got[0].CreatedAt != nostr.Timestamp(discovery.MaxActionEvents+1) {
		t.Fatalf("kept %d, dropped %d, newest %d", len(got), dropped, got[0].CreatedAt)
	}
}
