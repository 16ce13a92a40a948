package relaypool_test

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

// docs/architecture.md "Reading a repository", step 2: every relay is asked,
// in parallel, in ONE request.
func TestFetchSendsOneREQPerRelayCarryingEveryFilter(t *testing.T) {
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	ann := announcement(t, "alice", "repo", 100)
	del := signed(t, "alice", 5, 101, "", nostr.Tag{"a", "30617:" + pub("alice") + ":other"})
	for _, r := range relays {
		if err := r.Publish(ann); err != nil {
			t.Fatal(err)
		}
	}
	if err := relays[2].Publish(del); err != nil {
		t.Fatal(err)
	}
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays),
		nostr.Filter{Kinds: []int{30617}, Tags: nostr.TagMap{"d": {"repo"}}},
		nostr.Filter{Kinds: []int{5}, Authors: []string{pub("alice")}})
	for i, r := range relays {
		if n := r.ReqCount(); n != 1 {
			t.Errorf("relay %d received %d REQs, want 1", i, n)
		}
	}
	if !res.Complete {
		t.Fatalf("Complete = false, reports %+v", res.Relays)
	}
	if len(res.Events) != 2 || !ids(res.Events)[ann.ID] || !ids(res.Events)[del.ID] {
		t.Fatalf("events = %v, want the announcement and the deletion once each", res.Events)
	}
	if got := res.Sources[ann.ID]; len(got) != 3 {
		t.Errorf("Sources[announcement] = %v, want all three relays", got)
	}
	for i, rep := range res.Relays {
		if rep.URL != relays[i].URL() || rep.Status != relaypool.StatusOK {
			t.Errorf("report %d = %+v", i, rep)
		}
	}
}

func TestFetchWithOneOfThreeRelaysDownIsIncompleteWithPerRelayStatus(t *testing.T) {
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	ann := announcement(t, "alice", "repo", 100)
	for _, r := range relays {
		_ = r.Publish(ann)
	}
	relays[1].Stop()
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}})
	if res.Complete {
		t.Fatal("Complete = true with a relay down")
	}
	want := []string{relaypool.StatusOK, relaypool.StatusFailed, relaypool.StatusOK}
	for i, rep := range res.Relays {
		if rep.Status != want[i] {
			t.Errorf("relay %d status %q (%s), want %q", i, rep.Status, rep.Reason, want[i])
		}
	}
	if res.Relays[1].Reason == "" {
		t.Error("a failed relay must say why")
	}
	if len(res.Events) != 1 {
		t.Errorf("the answering relays' events must still be returned, got %d", len(res.Events))
	}
}

func TestFetchSilentRelayTimesOut(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	relays[0].SetSilent(true)
	p := relaypool.New(relaypool.Options{Timeout: 300 * time.Millisecond})
	defer p.Close()
	start := time.Now()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}})
	if res.Complete || res.Relays[0].Status != relaypool.StatusTimeout || res.Relays[1].Status != relaypool.StatusOK {
		t.Fatalf("reports %+v, want timeout then ok", res.Relays)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("fetch took %s; the timeout is 300ms", d)
	}
}

func TestFetchSlowRelayStillAnswersWithinTimeout(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	relays[0].SetSlow(100 * time.Millisecond)
	p := relaypool.New(relaypool.Options{Timeout: 5 * time.Second})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}})
	if !res.Complete {
		t.Fatalf("reports %+v", res.Relays)
	}
}

// docs/architecture.md "Reading a repository", step 3: every event is
// signature- and id-checked.
func TestFetchDropsForgedAndMisSignedEvents(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	good := announcement(t, "alice", "repo", 100)
	forged := announcement(t, "alice", "repo", 200)
	forged.Content = "tampered after signing" // id no longer matches
	misSigned := announcement(t, "alice", "repo", 300)
	other := announcement(t, "bob", "repo", 300)
	misSigned.Sig = other.Sig // right id, wrong signature
	_ = relays[0].Publish(good)
	relays[0].Inject(forged)
	relays[0].Inject(misSigned)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}})
	if len(res.Events) != 1 || res.Events[0].ID != good.ID {
		t.Fatalf("events = %v, want only the valid one", res.Events)
	}
	if rep := res.Relays[0]; rep.Dropped != 2 || rep.Events != 1 {
		t.Errorf("report %+v, want 1 event and 2 dropped", rep)
	}
}

// Rule (filter match): events are dropped if they do not match the filter asked.
func TestFetchDropsEventsNotMatchingTheFilter(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	want := announcement(t, "alice", "repo", 100)
	stray := announcement(t, "alice", "another-repo", 100)
	_ = relays[0].Publish(want)
	relays[0].SetExtra(stray)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}, Tags: nostr.TagMap{"d": {"repo"}}})
	if len(res.Events) != 1 || res.Events[0].ID != want.ID {
		t.Fatalf("events = %v, want only the matching one", res.Events)
	}
	if res.Relays[0].Dropped != 1 {
		t.Errorf("Dropped = %d, want 1", res.Relays[0].Dropped)
	}
}

func TestFetchNormalizesAndDedupesRelayURLs(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	u := relays[0].URL()
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	res := p.Fetch(context.Background(), []string{u, u + "/", "  " + u + " "}, nostr.Filter{Kinds: []int{1}})
	if len(res.Relays) != 1 || relays[0].ReqCount() != 1 {
		t.Fatalf("reports %+v, REQs %d; want one relay asked once", res.Relays, relays[0].ReqCount())
	}
}

func TestFetchReportsProgress(t *testing.T) {
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	var calls [][2]int
	p := relaypool.New(relaypool.Options{Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }})
	defer p.Close()
	p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{1}})
	if len(calls) != 3 || calls[2] != [2]int{3, 3} {
		t.Fatalf("progress calls %v, want 1/3 2/3 3/3", calls)
	}
}

// Remembering verified events across relays must not let a second relay's
// copy with a bad signature through: the cache key includes the signature.
func TestFetchDropsABadSignatureCopyOfAnEventAnotherRelayServedValid(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	ann := announcement(t, "alice", "repo", 100)
	_ = relays[0].Publish(ann)
	bad := *ann
	bad.Sig = announcement(t, "bob", "repo", 100).Sig
	relays[1].Inject(&bad)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}})
	if len(res.Events) != 1 || res.Events[0].Sig != ann.Sig {
		t.Fatalf("events %v, want alice's valid announcement", res.Events)
	}
	if got := res.Sources[ann.ID]; len(got) != 1 || got[0] != relays[0].URL() {
		t.Errorf("Sources %v, want only the relay that served a valid copy", got)
	}
	if res.Relays[1].Dropped != 1 {
		t.Errorf("second relay report %+v, want 1 dropped", res.Relays[1])
	}
}

func TestFetchFromNoRelayIsNotComplete(t *testing.T) {
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	if res := p.Fetch(context.Background(), []string{"", "::not a url"}, nostr.Filter{Kinds: []int{1}}); res.Complete || len(res.Relays) != 0 {
		t.Fatalf("no relay asked must not count as complete evidence: %+v", res)
	}
}

// A relay that goes away mid-request is "failed", not "timeout".
func TestFetchRelayDroppingTheConnectionIsFailed(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	relays[0].SetSlow(time.Minute)
	p := relaypool.New(relaypool.Options{Timeout: 30 * time.Second})
	defer p.Close()
	done := make(chan *relaypool.FetchResult, 1)
	go func() { done <- p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{1}}) }()
	eventually(t, 5*time.Second, "the REQ to arrive", func() bool { return relays[0].ReqCount() == 1 })
	relays[0].Stop()
	select {
	case res := <-done:
		if rep := res.Relays[0]; rep.Status != relaypool.StatusFailed || rep.Reason == "" {
			t.Fatalf("report %+v, want failed with a reason", rep)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("fetch did not notice the relay going away")
	}
	// The pool reconnects once the relay is back.
	if err := relays[0].Start(); err != nil {
		t.Fatal(err)
	}
	relays[0].SetSlow(0)
	if res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{1}}); !res.Complete {
		t.Fatalf("after restart: %+v", res.Relays)
	}
}
