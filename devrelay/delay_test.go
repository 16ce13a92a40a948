package devrelay

import (
	"slices"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// DelayNext holds one matching REQ's answer, and the answer is what the relay
// stores when the delay ends (an event stored meanwhile is in it); the next
// REQ is answered at once.
func TestDelayNextHoldsOneAnswerAndAnswersFromTheStoreAsItIsThen(t *testing.T) {
	r := start(t, Options{})
	first := sign(t, "alice", 1, 100, "first")
	if err := r.Publish(first); err != nil {
		t.Fatal(err)
	}
	r.DelayNext(func(f nostr.Filter) bool { return slices.Contains(f.Kinds, 1) }, 300*time.Millisecond)
	c := connect(t, r, "")
	later := sign(t, "alice", 1, 101, "stored while the answer is held")
	reqs := r.ReqCount()
	go func() {
		// Store it once the REQ is held.
		for deadline := time.Now().Add(5 * time.Second); r.ReqCount() == reqs && time.Now().Before(deadline); {
			time.Sleep(2 * time.Millisecond)
		}
		_ = r.Publish(later)
	}()
	began := time.Now()
	evs, _ := query(t, c, nostr.Filter{Kinds: []int{1}})
	if took := time.Since(began); took < 300*time.Millisecond {
		t.Fatalf("answered after %s, want the 300ms delay", took)
	}
	// The open subscription may also get the new event live: count ids.
	got := map[string]bool{}
	for _, e := range evs {
		got[e.ID] = true
	}
	if len(got) != 2 || !got[first.ID] || !got[later.ID] {
		t.Fatalf("held answer has %v, want both events (the store as it is when the delay ends)", got)
	}
	began = time.Now()
	if evs, _ := query(t, c, nostr.Filter{Kinds: []int{1}}); len(evs) != 2 || time.Since(began) > 200*time.Millisecond {
		t.Fatalf("the next REQ: %d events after %s, want both at once", len(evs), time.Since(began))
	}
}
