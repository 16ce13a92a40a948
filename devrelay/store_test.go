package devrelay

import (
	"context"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func addressable(t *testing.T, name, d string, at int64, content string) *nostr.Event {
	return sign(t, name, 30617, at, content, nostr.Tag{"d", d})
}

// NIP-01: for addressable events "only the latest event MUST be stored";
// on equal created_at "the event with the lowest id (first in lexical order)
// should be retained, and the other discarded".
func TestAddressableReplacementLowestIDWinsTies(t *testing.T) {
	r := start(t, Options{})
	a, b := addressable(t, "alice", "repo", 100, "a"), addressable(t, "alice", "repo", 100, "b")
	low, high := a, b
	if high.ID < low.ID {
		low, high = high, low
	}
	if err := r.Publish(high); err != nil {
		t.Fatal(err)
	}
	if err := r.Publish(low); err != nil {
		t.Fatalf("lower id on a tie must replace: %v", err)
	}
	if err := r.Publish(high); err == nil || !strings.HasPrefix(err.Error(), "duplicate:") {
		t.Fatalf("higher id on a tie must be refused, got %v", err)
	}
	got := r.Stored(nostr.Filter{Kinds: []int{30617}})
	if len(got) != 1 || got[0].ID != low.ID {
		t.Fatalf("stored %v, want only %s", got, low.ID)
	}
}

// docs/architecture.md pitfall: khatru acknowledges an older replaceable with
// OK:true.
func TestOlderReplaceableIsRefusedOverTheWire(t *testing.T) {
	r := start(t, Options{})
	c := connect(t, r, "")
	newer, older := addressable(t, "alice", "repo", 200, "new"), addressable(t, "alice", "repo", 100, "old")
	if err := c.Publish(context.Background(), *newer); err != nil {
		t.Fatal(err)
	}
	err := c.Publish(context.Background(), *older)
	if err == nil || !strings.Contains(err.Error(), "duplicate:") {
		t.Fatalf("older version: err %v, want an OK false duplicate", err)
	}
	meta0, meta1 := sign(t, "alice", 0, 200, "{}"), sign(t, "alice", 0, 100, "{}")
	_ = c.Publish(context.Background(), *meta0)
	if err := c.Publish(context.Background(), *meta1); err == nil {
		t.Fatal("an older plain replaceable (kind 0) must be refused too")
	}
	got := r.Stored(nostr.Filter{Authors: []string{testPub("alice")}})
	if len(got) != 2 {
		t.Fatalf("stored %d events, want the newer 30617 and the newer kind 0", len(got))
	}
}

// NIP-09: relays SHOULD delete the referenced events and "continue to
// publish/share the deletion request events indefinitely"; re-publishing a
// deleted event must not bring it back (docs/architecture.md pitfall).
func TestDeletionByIDAndAddressAndNoResurrection(t *testing.T) {
	r := start(t, Options{})
	note := sign(t, "alice", 1, 100, "note")
	ann := addressable(t, "alice", "repo", 100, "v1")
	for _, e := range []*nostr.Event{note, ann} {
		if err := r.Publish(e); err != nil {
			t.Fatal(err)
		}
	}
	del := sign(t, "alice", 5, 150, "", nostr.Tag{"e", note.ID}, nostr.Tag{"a", "30617:" + testPub("alice") + ":repo"})
	c := connect(t, r, "")
	if err := c.Publish(context.Background(), *del); err != nil {
		t.Fatal(err)
	}
	if got := r.Stored(nostr.Filter{IDs: []string{note.ID, ann.ID}}); len(got) != 0 {
		t.Fatalf("deleted events still stored: %v", got)
	}
	for _, e := range []*nostr.Event{note, ann} {
		if err := c.Publish(context.Background(), *e); err == nil || !strings.Contains(err.Error(), "blocked:") {
			t.Fatalf("re-publishing %d: err %v, want blocked", e.Kind, err)
		}
	}
	evs, _ := query(t, c, nostr.Filter{Kinds: []int{5}})
	if len(evs) != 1 || evs[0].ID != del.ID {
		t.Fatalf("the deletion request must be served, got %v", evs)
	}
	// A version newer than the deletion is a new announcement.
	if err := r.Publish(addressable(t, "alice", "repo", 200, "v2")); err != nil {
		t.Fatalf("newer version after an address deletion: %v", err)
	}
}

// NIP-09: "Relays SHOULD delete or stop publishing any referenced events that
// have an identical pubkey as the deletion request."
func TestDeletionByAnotherAuthorDeletesNothing(t *testing.T) {
	r := start(t, Options{})
	note := sign(t, "alice", 1, 100, "note")
	_ = r.Publish(note)
	forged := sign(t, "mallory", 5, 150, "", nostr.Tag{"e", note.ID}, nostr.Tag{"a", "1:" + testPub("alice") + ":"})
	_ = r.Publish(forged)
	if got := r.Stored(nostr.Filter{IDs: []string{note.ID}}); len(got) != 1 {
		t.Fatal("another author's deletion request removed alice's note")
	}
	if err := r.Publish(sign(t, "alice", 1, 101, "note 2")); err != nil {
		t.Fatal(err)
	}
}

// NIP-09 `a` tags address replaceable and addressable events; "1:<pk>:"
// must not wipe an author's regular notes.
func TestAddressDeletionOfARegularKindDeletesNothing(t *testing.T) {
	r := start(t, Options{})
	note := sign(t, "alice", 1, 100, "note")
	_ = r.Publish(note)
	_ = r.Publish(sign(t, "alice", 5, 150, "", nostr.Tag{"a", "1:" + testPub("alice") + ":"}))
	if got := r.Stored(nostr.Filter{IDs: []string{note.ID}}); len(got) != 1 {
		t.Fatal("an `a` deletion of kind 1 removed a regular note")
	}
}

func TestInjectBypassesValidation(t *testing.T) {
	r := start(t, Options{})
	bad := sign(t, "alice", 1, 100, "x")
	bad.Content = "tampered"
	if err := r.Publish(bad); err == nil {
		t.Fatal("Publish must check the id")
	}
	r.Inject(bad)
	if got := r.Stored(nostr.Filter{Kinds: []int{1}}); len(got) != 1 || got[0].Content != "tampered" {
		t.Fatal("Inject did not store the event as given")
	}
}

func TestStoredEventsCannotBeChangedByTheirPublisherOrReader(t *testing.T) {
	r := start(t, Options{})
	evt := sign(t, "alice", 1, 100, "original", nostr.Tag{"t", "x"})
	if err := r.Publish(evt); err != nil {
		t.Fatal(err)
	}
	evt.Content, evt.Tags[0][1] = "changed by publisher", "y"
	got := r.Stored(nostr.Filter{})[0]
	got.Content = "changed by reader"
	again := r.Stored(nostr.Filter{})[0]
	if again.Content != "original" || again.Tags[0][1] != "x" {
		t.Fatalf("stored event was changed from outside: %v", again)
	}
}
