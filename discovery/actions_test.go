package discovery_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Rule (role-scoped events are read with complete evidence, verified,
// bounded, cached): a complete read keeps the component's authors' actions
// naming its coordinates, the targets they name, and a target author's own
// actions on their target; an outsider's action on somebody else's target,
// an outsider's issue nobody in the component acted on, events naming
// another coordinate and events over the size bound are not kept. What was
// kept is in the cache.
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
	huge := testkeys.Event(t, aliceSK, actions.KindCoverNote, 160, strings.Repeat("x", discovery.MaxActionEventBytes), a, root)
	// An outsider's issue nobody in the component acted on cannot change
	// a result: not kept, not counted.
	lone := testkeys.Event(t, frankSK, actions.KindIssue, 170, "spam", a)
	publish(t, r, ann, issue, byAlice, byErin, byFrank, elsewhere, huge, lone)
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
	if v.ActionsDropped != 1 || !slices.Equal(v.ActionsOverLimit, []string{huge.ID}) {
		t.Fatalf("dropped %d (%v), want the oversized cover note named", v.ActionsDropped, v.ActionsOverLimit)
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

// Rule (bounded, and strangers cannot force the bound): outsiders' issues
// with their own statuses and labels, however many, are neither kept nor
// counted; of a target author's own events on a target the component acted
// on, the newest status and MaxOwnLabels labels are kept.
func TestSelectActionsIgnoresStrangersAndBoundsATargetAuthorsOwnEvents(t *testing.T) {
	alice := testkeys.Pub(t, aliceSK)
	a := nostr.Tag{"a", "30617:" + alice + ":proj"}
	frankSK := key("frank")
	var evs []*nostr.Event
	for i := 0; i < 50; i++ {
		iss := testkeys.Event(t, frankSK, actions.KindIssue, int64(i), "spam", a)
		evs = append(evs, iss, testkeys.Event(t, frankSK, actions.KindStatusClosed, int64(i+1), "", a, nostr.Tag{"e", iss.ID}))
	}
	got, dropped, _ := discovery.SelectActions(evs, "proj", []string{alice})
	if len(got) != 0 || dropped != 0 {
		t.Fatalf("strangers' issues: kept %d, dropped %d", len(got), dropped)
	}
	target := evs[0]
	evs = append(evs, testkeys.Event(t, aliceSK, actions.KindStatusClosed, 1000, "", a, nostr.Tag{"e", target.ID}))
	for i := 0; i < discovery.MaxOwnLabels+10; i++ {
		evs = append(evs, testkeys.Event(t, frankSK, actions.KindLabel, int64(2000+i), "", a, nostr.Tag{"e", target.ID},
			nostr.Tag{"L", "#t"}, nostr.Tag{"l", fmt.Sprint("l", i), "#t"}))
	}
	evs = append(evs, testkeys.Event(t, frankSK, actions.KindStatusOpen, 3000, "", a, nostr.Tag{"e", target.ID}))
	got, dropped, _ = discovery.SelectActions(evs, "proj", []string{alice})
	counts := map[int]int{}
	for _, e := range got {
		counts[e.Kind]++
	}
	// alice's status and frank's newest; the issue; the newest labels.
	if dropped != 0 || counts[actions.KindIssue] != 1 || counts[actions.KindStatusClosed] != 1 || counts[actions.KindStatusOpen] != 1 ||
		counts[actions.KindLabel] != discovery.MaxOwnLabels {
		t.Fatalf("kept %v, dropped %d", counts, dropped)
	}
}

// Rule (bounded): at most MaxActionEvents component events are kept,
// newest first, and the rest are counted as dropped.
func TestSelectActionsKeepsTheNewestUpToTheBound(t *testing.T) {
	alice := testkeys.Pub(t, aliceSK)
	a := nostr.Tag{"a", "30617:" + alice + ":proj"}
	var evs []*nostr.Event
	for i := 0; i < discovery.MaxActionEvents+2; i++ {
		evs = append(evs, &nostr.Event{ID: fmt.Sprintf("%064x", i), PubKey: alice, Kind: actions.KindStatusClosed, CreatedAt: nostr.Timestamp(i), Tags: nostr.Tags{a}})
	}
	got, dropped, leftOut := discovery.SelectActions(evs, "proj", []string{alice})
	if len(got) != discovery.MaxActionEvents || dropped != 2 || got[0].CreatedAt != nostr.Timestamp(discovery.MaxActionEvents+1) {
		t.Fatalf("kept %d, dropped %d, newest %d", len(got), dropped, got[0].CreatedAt)
	}
	if !slices.Equal(leftOut, []string{evs[1].ID, evs[0].ID}) {
		t.Fatalf("left out %v, want the two oldest named", leftOut)
	}
}

// Rule (a request stays under relaypool.MaxREQBytes): the role-scoped
// filter that carries a limit, which the pool never splits, is cut here
// when thousands of authors are reachable, each piece small and limited.
func TestActionFiltersWithALimitStaySmallForThousandsOfAuthors(t *testing.T) {
	var authors []string
	for i := 0; i < 10_000; i++ {
		authors = append(authors, fmt.Sprintf("%064x", i))
	}
	fs := discovery.ActionFilters("proj", authors)
	covered := 0
	for _, f := range fs {
		raw, _ := f.MarshalJSON()
		if f.Limit > 0 {
			covered += len(f.Tags["a"])
			if len(raw) > relaypool.MaxREQBytes/2 {
				t.Fatalf("a limited filter of %d bytes", len(raw))
			}
		}
	}
	if covered != len(authors) {
		t.Fatalf("the limited filters cover %d coordinates, want %d", covered, len(authors))
	}
}
