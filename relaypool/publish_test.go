package relaypool_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
)

func TestPublishReportsEachRelayAndReadBackNamesWhoHasIt(t *testing.T) {
	relays := devrelay.StartN(t, 3, devrelay.Options{})
	relays[2].Stop()
	evt := announcement(t, "alice", "repo", 100)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	reps := p.Publish(context.Background(), devrelay.URLs(relays), evt)
	if !reps[0].OK || !reps[1].OK || reps[2].OK || reps[2].Message == "" {
		t.Fatalf("publish reports %+v, want ok, ok, failed with a message", reps)
	}
	missing := announcement(t, "bob", "repo", 100)
	seen, res := p.ReadBack(context.Background(), devrelay.URLs(relays), []string{evt.ID, missing.ID})
	if got := seen[evt.ID]; len(got) != 2 || got[0] != relays[0].URL() || got[1] != relays[1].URL() {
		t.Errorf("read back %v, want the two live relays", got)
	}
	if got, ok := seen[missing.ID]; !ok || len(got) != 0 {
		t.Errorf("an id nobody returned must map to an empty list, got %v, %v", got, ok)
	}
	if res.Complete || res.Relays[2].Status != relaypool.StatusFailed {
		t.Errorf("read back reports %+v", res.Relays)
	}
}

// NIP-01 via devrelay: for the same address the newest wins, and on equal
// created_at the lowest id wins; an older version is refused, not acknowledged.
func TestPublishedAddressableReplacementKeepsLowestIDOnTies(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	a := announcement(t, "alice", "repo", 100, nostr.Tag{"name", "a"})
	b := announcement(t, "alice", "repo", 100, nostr.Tag{"name", "b"})
	low, high := a, b
	if high.ID < low.ID {
		low, high = high, low
	}
	if rep := p.Publish(context.Background(), devrelay.URLs(relays), high)[0]; !rep.OK {
		t.Fatal(rep)
	}
	if rep := p.Publish(context.Background(), devrelay.URLs(relays), low)[0]; !rep.OK {
		t.Fatalf("the lower id must replace on a tie: %+v", rep)
	}
	if rep := p.Publish(context.Background(), devrelay.URLs(relays), high)[0]; rep.OK || !strings.HasPrefix(rep.Message, "duplicate:") {
		t.Fatalf("the higher id must be refused after the lower one: %+v", rep)
	}
	older := announcement(t, "alice", "repo", 99)
	if rep := p.Publish(context.Background(), devrelay.URLs(relays), older)[0]; rep.OK {
		t.Fatalf("an older version must be refused: %+v", rep)
	}
	res := p.Fetch(context.Background(), devrelay.URLs(relays), nostr.Filter{Kinds: []int{30617}})
	if len(res.Events) != 1 || res.Events[0].ID != low.ID {
		t.Fatalf("relay serves %v, want only the lowest-id tie winner", res.Events)
	}
}

// NIP-09 via devrelay: a deleted announcement is gone and re-publishing it
// does not bring it back; the deletion itself is served.
func TestDeletionIsRespectedAndCannotBeUndoneByRepublishing(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	ann := announcement(t, "alice", "repo", 100)
	coord := "30617:" + pub("alice") + ":repo"
	del := signed(t, "alice", 5, 150, "retired", nostr.Tag{"a", coord}, nostr.Tag{"k", "30617"})
	for _, e := range []*nostr.Event{ann, del} {
		if rep := p.Publish(context.Background(), devrelay.URLs(relays), e)[0]; !rep.OK {
			t.Fatal(rep)
		}
	}
	if rep := p.Publish(context.Background(), devrelay.URLs(relays), ann)[0]; rep.OK {
		t.Fatalf("re-publishing a deleted announcement was accepted: %+v", rep)
	}
	res := p.Fetch(context.Background(), devrelay.URLs(relays),
		nostr.Filter{Kinds: []int{30617}}, nostr.Filter{Kinds: []int{5}, Tags: nostr.TagMap{"a": {coord}}})
	if len(res.Events) != 1 || res.Events[0].ID != del.ID {
		t.Fatalf("served %v, want only the deletion", res.Events)
	}
	newer := announcement(t, "alice", "repo", 200)
	if rep := p.Publish(context.Background(), devrelay.URLs(relays), newer)[0]; !rep.OK {
		t.Fatalf("an announcement newer than the deletion must be accepted: %+v", rep)
	}
}
