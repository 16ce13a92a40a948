package devrelay

import (
	"context"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// Misbehaviour: DelayRelease holds a matching published event back: the
// publisher's OK comes after the delay, no reader sees the event before
// it, and once released it replaces the version it is newer than, even
// one stored meanwhile. Other events are stored at once.
func TestMisbehaviourDelaysTheReleaseOfAPublishedEvent(t *testing.T) {
	const hold = 300 * time.Millisecond
	r := start(t, Options{})
	slow := sign(t, "alice", 30617, 200, "", nostr.Tag{"d", "x"}, nostr.Tag{"name", "slow"})
	fast := sign(t, "alice", 30617, 100, "", nostr.Tag{"d", "x"}, nostr.Tag{"name", "fast"})
	r.SetMisbehaviour(Misbehaviour{DelayRelease: func(e *nostr.Event) time.Duration {
		if e.ID == slow.ID {
			return hold
		}
		return 0
	}})
	c := connect(t, r, "")
	done := make(chan error, 1)
	began := time.Now()
	go func() { done <- c.Publish(context.Background(), *slow) }()
	// The held event is not served; one published meanwhile is stored at once.
	eventually(t, "the held EVENT to arrive", func() bool { return r.EventCount() >= 1 })
	if err := connect(t, r, "").Publish(context.Background(), *fast); err != nil {
		t.Fatal(err)
	}
	addr := nostr.Filter{Kinds: []int{30617}, Authors: []string{testPub("alice")}, Tags: nostr.TagMap{"d": {"x"}}}
	if got := r.Stored(addr); len(got) != 1 || got[0].ID != fast.ID {
		t.Fatalf("while held the relay stores %v, want only the other event", got)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took < hold {
		t.Fatalf("OK after %v, before the %v hold", took, hold)
	}
	if got := r.Stored(addr); len(got) != 1 || got[0].ID != slow.ID {
		t.Fatalf("after the release the relay stores %v, want the released (newer) event", got)
	}
}
