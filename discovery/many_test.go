package discovery_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/testkeys"
)

var (
	manyLeadSK = testkeys.Named("discovery-many-", "lead")
	manyCoSK   = testkeys.Named("discovery-many-", "co")
)

// publishTeam publishes, on every relay, a repository d led by the lead
// with the co-maintainer confirmed (both announcements, reciprocal).
func publishTeam(t *testing.T, relays []*devrelay.Relay, d string) {
	t.Helper()
	lead, co := testkeys.Pub(t, manyLeadSK), testkeys.Pub(t, manyCoSK)
	evs := []*nostr.Event{
		testkeys.Sign(t, manyLeadSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 300, Tags: nostr.Tags{
			{"d", d}, {"M", lead}, {"m", co, "200"}, {"maintainers", lead, co}}}),
		testkeys.Sign(t, manyCoSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 200, Tags: nostr.Tags{
			{"d", d}, {"M", lead, "200"}, {"m", co, "200"}, {"maintainers", lead, co}}}),
	}
	for _, r := range relays {
		for _, e := range evs {
			if err := r.Publish(e); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func manySelections(t *testing.T, ds ...string) []gitstate.Selection {
	var out []gitstate.Selection
	for _, d := range ds {
		out = append(out, gitstate.Selection{Coordinate: graph.NewCoordinate(testkeys.Pub(t, manyLeadSK), d)})
	}
	return out
}

// Rule (a project's repositories are read in one discovery, not one per
// repository): LoadMany of three repositories sends each relay exactly the
// requests a Load of one sends, counted at the relays: one for a plain
// read, two with complete evidence (the deletions and role-scoped events
// of every repository in the second); each repository resolves its own
// lead and confirmed maintainers, and one the relays do not hold is
// *NotFound on its own.
func TestLoadManyReadsEveryRepositoryInTheRoundsOfOne(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	for _, d := range []string{"alpha", "beta", "gamma"} {
		publishTeam(t, relays, d)
	}
	ctx := context.Background()
	count := func() []int { return []int{relays[0].ReqCount(), relays[1].ReqCount()} }
	for _, tc := range []struct {
		need discovery.Evidence
		reqs int
	}{{discovery.Partial, 1}, {discovery.Complete, 2}} {
		src := cachedSource(t, t.TempDir(), devrelay.URLs(relays)...)
		src.Pinned = true
		before := count()
		if _, err := discovery.Load(ctx, src, manySelections(t, "alpha")[0], nil, tc.need, "", 1000); err != nil {
			t.Fatal(err)
		}
		one := count()
		got, err := discovery.LoadMany(ctx, src, manySelections(t, "alpha", "beta", "gamma", "missing"), tc.need, "", 1000)
		if err != nil {
			t.Fatal(err)
		}
		after := count()
		for i := range relays {
			if single, many := one[i]-before[i], after[i]-one[i]; single != tc.reqs || many != tc.reqs {
				t.Fatalf("evidence %d, relay %d: one repository cost %d REQs, four cost %d; want %d each", tc.need, i, single, many, tc.reqs)
			}
		}
		for i, m := range got[:3] {
			r := m.View
			if m.Err != nil || r == nil || r.Resolution.Lead != testkeys.Pub(t, manyLeadSK) || len(r.Resolution.Component) != 2 {
				t.Fatalf("repository %d: %+v", i, m)
			}
			if r.Coordinate() != m.Selection.Coordinate || len(r.Events) != 2 {
				t.Fatalf("repository %d holds %d events of %s", i, len(r.Events), r.Coordinate().ATag())
			}
		}
		var nf *discovery.NotFound
		if !errors.As(got[3].Err, &nf) {
			t.Fatalf("missing repository: %v", got[3].Err)
		}
	}
}

// Rule (bound every cost an attacker controls): more than MaxMany
// repositories in one read are refused before anything is asked; a relay
// that does not answer makes every repository incomplete under complete
// evidence.
func TestLoadManyIsBoundedAndFailsClosed(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publishTeam(t, relays, "alpha")
	ctx := context.Background()
	var ds []string
	for i := 0; i <= discovery.MaxMany; i++ {
		ds = append(ds, string(rune('a'+i)))
	}
	var mb *discovery.ManyBound
	if _, err := discovery.LoadMany(ctx, cachedSource(t, t.TempDir(), relays[0].URL()), manySelections(t, ds...), discovery.Partial, "", 1000); !errors.As(err, &mb) || relays[0].ReqCount() != 0 {
		t.Fatalf("%d repositories: %v, %d REQs", len(ds), err, relays[0].ReqCount())
	}
	got, err := discovery.LoadMany(ctx, cachedSource(t, t.TempDir(), relays[0].URL(), "ws://127.0.0.1:1"), manySelections(t, "alpha", "beta"), discovery.Complete, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range got {
		var inc *discovery.Incomplete
		if !errors.As(m.Err, &inc) {
			t.Fatalf("%s with a dead relay: %v", m.Selection.Coordinate.Identifier, m.Err)
		}
	}
}
