package relaypool_test

import (
	"context"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// seedRepo publishes a three-maintainer repository "repo" (plus noise) to
// every relay and returns the selected coordinate (alice's).
func seedRepo(t *testing.T, relays []*devrelay.Relay) graph.Coordinate {
	t.Helper()
	evs := []*nostr.Event{
		announcement(t, "alice", "repo", 100, nostr.Tag{"M", pub("alice")}, nostr.Tag{"m", pub("bob"), "90"}),
		announcement(t, "bob", "repo", 110, nostr.Tag{"M", pub("alice"), "90"}, nostr.Tag{"m", pub("bob"), "90"}),
		announcement(t, "carol", "repo", 120),
		signed(t, "alice", 30618, 130, "", nostr.Tag{"d", "repo"}, nostr.Tag{"HEAD", "ref: refs/heads/main"}),
		announcement(t, "alice", "unrelated", 100),
		signed(t, "alice", 5, 140, "", nostr.Tag{"a", "30617:" + pub("alice") + ":gone"}),
	}
	for _, r := range relays {
		for _, e := range evs {
			if err := r.Publish(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	return graph.NewCoordinate(pub("alice"), "repo")
}

func reqCounts(relays []*devrelay.Relay) []int {
	out := make([]int, len(relays))
	for i, r := range relays {
		out[i] = r.ReqCount()
	}
	return out
}

// docs/architecture.md "Reading a repository", step 2: every same-identifier
// announcement, the state and the selected coordinate's deletions arrive in
// ONE request per relay.
func TestDiscoverIsOneREQPerRelay(t *testing.T) {
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	coord := seedRepo(t, relays)
	del := signed(t, "alice", 5, 150, "", nostr.Tag{"a", "30618:" + pub("alice") + ":repo"})
	_ = relays[0].Publish(del)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	res := p.Discover(context.Background(), devrelay.URLs(relays), "repo", coord)
	if got := reqCounts(relays); got[0] != 1 || got[1] != 1 || got[2] != 1 {
		t.Fatalf("REQs per relay %v, want 1 each", got)
	}
	kinds := map[int]int{}
	for _, e := range res.Events {
		kinds[e.Kind]++
	}
	// The state event was deleted on relay 0 only; the others still serve it.
	if kinds[30617] != 3 || kinds[30618] != 1 || kinds[5] != 1 || len(res.Events) != 5 {
		t.Fatalf("kinds %v (%d events), want 3 announcements, the state, its deletion", kinds, len(res.Events))
	}
	if !res.Complete {
		t.Fatalf("reports %+v", res.Relays)
	}
}

// Rule (discovery rounds): a newly learned relay costs one more round, and
// only then.
func TestDiscoverMoreAsksOnlyNewRelaysOnce(t *testing.T) {
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	coord := seedRepo(t, relays[:2])
	late := announcement(t, "dave", "repo", 200)
	_ = relays[2].Publish(late)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	ctx := context.Background()
	first := p.Discover(ctx, devrelay.URLs(relays[:2]), "repo", coord)

	same := p.DiscoverMore(ctx, first, devrelay.URLs(relays[:2]))
	if same != first || reqCounts(relays)[0] != 1 {
		t.Fatalf("no new relay must mean no new request; REQs %v", reqCounts(relays))
	}
	more := p.DiscoverMore(ctx, first, append(devrelay.URLs(relays[:1]), relays[2].URL()))
	if got := reqCounts(relays); got[0] != 1 || got[1] != 1 || got[2] != 1 {
		t.Fatalf("REQs %v, want one each: the new relay once, the old ones not again", got)
	}
	if !ids(more.Events)[late.ID] || len(more.Relays) != 3 || !more.Complete {
		t.Fatalf("merged result lacks the new relay's answer: %d events, %+v", len(more.Events), more.Relays)
	}
}

// Deletions of co-maintainers' announcements (by `a` and by `e`) cost one
// more request, and only when there is something not yet covered.
func TestCompleteDeletionsFindsOtherAuthorsDeletionsInOneMoreRound(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	coord := seedRepo(t, relays)
	// Bob deletes his announcement on relay 1 only (by e and a); relay 0 still serves it.
	bobs := relays[0].Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{pub("bob")}})
	del := signed(t, "bob", 5, 300, "", nostr.Tag{"e", bobs[0].ID}, nostr.Tag{"a", "30617:" + pub("bob") + ":repo"})
	if err := relays[1].Publish(del); err != nil {
		t.Fatal(err)
	}
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	ctx := context.Background()
	first := p.Discover(ctx, devrelay.URLs(relays), "repo", coord)
	if ids(first.Events)[del.ID] {
		t.Fatal("bob's deletion should need the second round in this setup")
	}
	full := p.CompleteDeletions(ctx, first, []string{pub("alice"), pub("bob")})
	if got := reqCounts(relays); got[0] != 2 || got[1] != 2 {
		t.Fatalf("REQs %v, want 2 per relay", got)
	}
	if !ids(full.Events)[del.ID] || !full.Complete {
		t.Fatalf("deletion not found: %d events, %+v", len(full.Events), full.Relays)
	}
	again := p.CompleteDeletions(ctx, full, []string{pub("alice"), pub("bob")})
	if again != full || reqCounts(relays)[0] != 2 {
		t.Fatalf("everything is covered: no further request expected, REQs %v", reqCounts(relays))
	}
}

// Rule (bound what others publish): the deletion round asks only about the
// authors given (those who can change the resolution); an unrelated
// same-identifier author's deletion is not asked for.
func TestCompleteDeletionsAsksOnlyAboutTheGivenAuthors(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	coord := seedRepo(t, relays)
	carols := relays[0].Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{pub("carol")}})
	del := signed(t, "carol", 5, 300, "", nostr.Tag{"e", carols[0].ID}, nostr.Tag{"a", "30617:" + pub("carol") + ":repo"})
	if err := relays[0].Publish(del); err != nil {
		t.Fatal(err)
	}
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	ctx := context.Background()
	full := p.CompleteDeletions(ctx, p.Discover(ctx, devrelay.URLs(relays), "repo", coord), []string{pub("alice"), pub("bob")})
	if !full.Complete || ids(full.Events)[del.ID] {
		t.Fatalf("complete %v; carol's deletion fetched although carol was not asked about", full.Complete)
	}
}

// Rule (signatures where they matter): with DeferSignatures the discovery
// rounds check ids and filters on arrival and keep events out of Events
// until VerifyAuthors checks the signatures of the authors asked for; an
// event with a valid id and a forged signature is then dropped.
func TestDeferredSignaturesAreCheckedOnlyForTheAuthorsAskedFor(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	coord := seedRepo(t, relays)
	forged := announcement(t, "dave", "repo", 100)
	forged.Sig = announcement(t, "dave", "repo", 101).Sig // valid id, wrong signature
	relays[0].Inject(forged)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	p.DeferSignatures()
	res := p.Discover(context.Background(), devrelay.URLs(relays), "repo", coord)
	if len(res.Events) != 0 || p.SignatureChecks() != 0 {
		t.Fatalf("%d events, %d signature checks before VerifyAuthors; want none", len(res.Events), p.SignatureChecks())
	}
	if !p.VerifyAuthors(res, []string{pub("alice")}) {
		t.Fatal("nothing verified for alice")
	}
	for _, e := range res.Events {
		if e.PubKey != pub("alice") {
			t.Fatalf("event by %s verified, only alice was asked for", e.PubKey)
		}
	}
	checks := p.SignatureChecks()
	if p.VerifyAuthors(res, []string{pub("dave")}) || ids(res.Events)[forged.ID] {
		t.Fatal("the forged event was accepted")
	}
	if p.SignatureChecks() != checks+1 || res.Relays[0].Dropped != 1 {
		t.Fatalf("signature checks %d (want %d), report %+v (want 1 dropped)", p.SignatureChecks(), checks+1, res.Relays[0])
	}
}

// Rule (a write's recheck and re-read cost one round): Refetch asks each
// relay again in ONE request carrying the filters of every earlier round,
// and its answer is fresh: a deletion that only the deletion round asked
// for, published since, is in it.
func TestRefetchIsOneREQPerRelayCarryingEveryRoundsFilters(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	coord := seedRepo(t, relays)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	ctx := context.Background()
	first := p.Discover(ctx, devrelay.URLs(relays), "repo", coord)
	full := p.CompleteDeletions(ctx, first, []string{pub("alice"), pub("bob")})
	before := reqCounts(relays)
	bobs := relays[0].Stored(nostr.Filter{Kinds: []int{30617}, Authors: []string{pub("bob")}})
	del := signed(t, "bob", 5, 300, "", nostr.Tag{"e", bobs[0].ID})
	if err := relays[1].Publish(del); err != nil {
		t.Fatal(err)
	}
	again := p.Refetch(ctx, full, devrelay.URLs(relays))
	after := reqCounts(relays)
	for i := range relays {
		if after[i] != before[i]+1 {
			t.Fatalf("relay %d got %d more REQs, want 1", i, after[i]-before[i])
		}
	}
	if !again.Complete || !ids(again.Events)[del.ID] {
		t.Fatalf("the refetch lacks the new deletion or is incomplete: %+v", again.Relays)
	}
	for _, r := range again.Relays {
		if r.Answered.IsZero() {
			t.Fatalf("%s: no answer time", r.URL)
		}
	}
}

// Rule (reading back costs no round of its own): Refetch adds the caller's
// filters (a write's read-back: the event by id and by address) to the
// same one request per relay, and what they match is in the answer.
func TestRefetchCarriesTheCallersFiltersInTheSameRequest(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	coord := seedRepo(t, relays)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	ctx := context.Background()
	first := p.Discover(ctx, devrelay.URLs(relays), "repo", coord)
	other := announcement(t, "alice", "elsewhere", 400) // outside the discovery's filters
	for _, r := range relays {
		if err := r.Publish(other); err != nil {
			t.Fatal(err)
		}
	}
	before := reqCounts(relays)
	byID := nostr.Filter{IDs: []string{other.ID}}
	again := p.Refetch(ctx, first, devrelay.URLs(relays), byID)
	for i, n := range reqCounts(relays) {
		if n != before[i]+1 {
			t.Fatalf("relay %d got %d more REQs, want 1", i, n-before[i])
		}
		last := relays[i].Requests()[n-1]
		if len(last) != 3 || !nostr.FilterEqual(last[2], byID) {
			t.Fatalf("relay %d: the request carried %v, want the discovery's two filters and the caller's", i, last)
		}
	}
	if !again.Complete || !ids(again.Events)[other.ID] || len(again.Sources[other.ID]) != 2 {
		t.Fatalf("the caller's filter was not answered by both relays: %+v", again.Relays)
	}
}
