package relaypool_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// Each relay's report says when its answer arrived; Reask asks the named
// relays again with every filter the earlier rounds asked, merges what is
// new, and dates their answer anew, leaving the others' as they were.
func TestReaskDatesTheRelaysAskedAgainAndMergesWhatIsNew(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	urls := devrelay.URLs(relays)
	base := announcement(t, "alice", "repo", 100)
	for _, r := range relays {
		if err := r.Publish(base); err != nil {
			t.Fatal(err)
		}
	}
	relays[0].DelayNext(func(f nostr.Filter) bool { return slices.Contains(f.Kinds, 30617) }, 300*time.Millisecond)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	start := time.Now()
	res := p.Discover(context.Background(), urls, "repo", graph.NewCoordinate(pub("alice"), "repo"))
	slow, fast := res.Relays[0].Answered, res.Relays[1].Answered
	// Each answer is dated by its own arrival: the delayed relay's no
	// sooner than its delay, and after the other's (a loaded machine may
	// slow the fast one too, so only the order and the delay are fixed).
	if slow.IsZero() || fast.IsZero() || slow.Sub(start) < 300*time.Millisecond || !slow.After(fast) {
		t.Fatalf("answer times %v (slow) and %v (fast) from %v: want the slow relay's at least 300ms after the start and after the fast one's", slow, fast, start)
	}
	newer := announcement(t, "alice", "repo", 200)
	if err := relays[1].Publish(newer); err != nil {
		t.Fatal(err)
	}
	again := p.Reask(context.Background(), res, []string{urls[1]})
	if !again.Complete || again.Relays[0].Answered != slow || !again.Relays[1].Answered.After(slow) {
		t.Fatalf("after the re-ask: complete %v, answers %v / %v (slow was %v)", again.Complete, again.Relays[0].Answered, again.Relays[1].Answered, slow)
	}
	if !ids(again.Events)[newer.ID] || !slices.Equal(again.Sources[newer.ID], []string{urls[1]}) {
		t.Fatalf("the re-ask's new event is missing: %v", again.Sources)
	}
	if same := p.Reask(context.Background(), again, nil); same != again {
		t.Fatal("a re-ask of no relay must send nothing and return the result as it was")
	}
}

// A relay that keeps a newer event of the same address than the one
// delivered says so on read-back: superseded_by names it.
func TestDeliverNamesTheNewerEventARelayKeepsInstead(t *testing.T) {
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	winner := announcement(t, "alice", "repo", 200, nostr.Tag{"name", "the other edit"})
	if err := relays[1].Publish(winner); err != nil {
		t.Fatal(err)
	}
	mine := announcement(t, "alice", "repo", 150)
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	d := p.Deliver(context.Background(), devrelay.URLs(relays), mine, relaypool.DeliverOptions{})
	if d.Relays[0].SupersededBy != "" || !d.Relays[0].ReadBack {
		t.Fatalf("relay 0 keeps ours: %+v", d.Relays[0])
	}
	if d.Relays[1].SupersededBy != winner.ID || d.Relays[1].ReadBack {
		t.Fatalf("relay 1 keeps the newer edit: %+v", d.Relays[1])
	}
	if probs := d.Problems(); len(probs) != 1 || !strings.Contains(probs[0], winner.ID) {
		t.Fatalf("problems %q, want one naming %s", probs, winner.ID)
	}
}

// A relay that refuses the event because it keeps a newer version of the
// address is read back by address even when no relay accepted, so the
// refusal says which version won.
func TestDeliverRefusedForANewerVersionNamesIt(t *testing.T) {
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	winner := announcement(t, "alice", "repo", 200)
	if err := relays[0].Publish(winner); err != nil {
		t.Fatal(err)
	}
	p := relaypool.New(relaypool.Options{})
	defer p.Close()
	d := p.Deliver(context.Background(), devrelay.URLs(relays), announcement(t, "alice", "repo", 150), relaypool.DeliverOptions{})
	if d.Accepted != 0 || d.Relays[0].OK || d.Relays[0].SupersededBy != winner.ID {
		t.Fatalf("delivery %+v, want refused and superseded by %s", d.Relays, winner.ID)
	}
}
