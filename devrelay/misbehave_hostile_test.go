package devrelay

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Misbehaviour: BadSignature serves the chosen events with their id and
// content intact and a signature that does not verify; the others verify.
func TestMisbehaviourServesBadSignatureCopies(t *testing.T) {
	r := start(t, Options{})
	evs := seedNotes(t, r, 2)
	r.SetMisbehaviour(Misbehaviour{BadSignature: func(e *nostr.Event) bool { return e.ID == evs[0].ID }})
	a := dialRaw(t, r).req("s", notes)
	if !a.EOSE || len(a.Events) != 2 {
		t.Fatalf("%+v, want two events and EOSE", a)
	}
	for _, e := range a.Events {
		ok, _ := e.CheckSignature()
		if !e.CheckID() {
			t.Fatalf("event %s served with a broken id", e.ID)
		}
		if want := e.ID != evs[0].ID; ok != want {
			t.Errorf("event %s: signature valid %v, want %v", e.ID, ok, want)
		}
	}
	if stored := r.Stored(notes); len(stored) != 2 || stored[0].Sig == "" {
		t.Fatal("the relay's stored events changed")
	}
}

// Misbehaviour: CapPerFilter answers each filter with at most that many
// events, the newest, and still sends EOSE; Strangers adds validly signed
// events from other keys that match the filter and are newer than what is
// stored, the same ones each time, so a capped answer holds only them.
func TestMisbehaviourCapsEachFilterNewestFirstAndAddsStrangers(t *testing.T) {
	r := start(t, Options{})
	own := seedNotes(t, r, 5)
	r.SetMisbehaviour(Misbehaviour{CapPerFilter: 3})
	a := dialRaw(t, r).req("s", notes, nostr.Filter{Kinds: []int{1}, Authors: []string{own[0].PubKey}})
	if !a.EOSE || len(a.Events) != 6 {
		t.Fatalf("EOSE %v, %d events; want 3 per filter", a.EOSE, len(a.Events))
	}
	for _, e := range a.Events {
		if e.CreatedAt < own[2].CreatedAt {
			t.Fatalf("an older event (%d) was served past the cap", e.CreatedAt)
		}
	}
	r.SetMisbehaviour(Misbehaviour{CapPerFilter: 3, Strangers: func(f nostr.Filter) Strangers {
		return Strangers{Kind: 1, Count: 4, Bytes: 1000, Newest: 10_000}
	}})
	c := dialRaw(t, r)
	first := c.req("a", notes)
	if len(first.Events) != 3 {
		t.Fatalf("%d events, want the cap of 3", len(first.Events))
	}
	for _, e := range first.Events {
		if e.PubKey == own[0].PubKey || len(e.Content) != 1000 {
			t.Fatalf("a capped answer held %+v, want only strangers' big events", e)
		}
		if ok, _ := e.CheckSignature(); !ok {
			t.Fatal("a stranger's event does not verify")
		}
	}
	again := c.req("b", notes)
	for i := range again.Events {
		if again.Events[i].ID != first.Events[i].ID {
			t.Fatal("the same filter got other strangers' events")
		}
	}
	if byAuthor := c.req("c", nostr.Filter{Kinds: []int{1}, Authors: []string{own[0].PubKey}}); len(byAuthor.Events) != 3 || byAuthor.Events[0].PubKey != own[0].PubKey {
		t.Fatalf("a filter naming an author got strangers: %+v", byAuthor.Events)
	}
}
