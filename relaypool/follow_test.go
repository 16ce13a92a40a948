package relaypool_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/relaypool/verified"
)

// Rule: Follow keeps one subscription open and hands over the events
// published after it opened, checked, on a relay that demands NIP-42: it
// answers the challenge first with AuthFirst, and without it when the
// relay's NIP-11 says auth_required (a "limit": 0 subscription is never
// refused with auth-required, only starved); a "limit": 0 filter brings
// no stored events.
func TestFollowDeliversLiveEventsAfterAuthenticating(t *testing.T) {
	for _, first := range []bool{true, false} {
		followAuthenticated(t, first)
	}
}

func followAuthenticated(t *testing.T, authFirst bool) {
	r := devrelay.StartN(t, 1, devrelay.Options{RequireAuth: true})[0]
	old := announcement(t, "alice", "repo", 100)
	if err := r.Publish(old); err != nil {
		t.Fatal(err)
	}
	pool := relaypool.New(relaypool.Options{Timeout: 2 * time.Second, Auth: signer("reader"), AuthFirst: authFirst})
	defer pool.Close()
	var mu sync.Mutex
	var got []string
	opened := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- pool.Follow(ctx, r.URL(), []nostr.Filter{{Kinds: []int{30617}, LimitZero: true}}, relaypool.FollowOptions{
			Event: func(v verified.Event) {
				mu.Lock()
				got = append(got, v.Event().ID)
				mu.Unlock()
			},
			Open: func() { close(opened) },
		})
	}()
	select {
	case <-opened:
	case <-time.After(5 * time.Second):
		t.Fatal("the subscription never opened")
	}
	fresh := announcement(t, "alice", "repo", 200)
	if err := r.Publish(fresh); err != nil {
		t.Fatal(err)
	}
	eventually(t, 2*time.Second, "the live event", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) == 1
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Follow after its context ended: %v", err)
	}
	if got[0] != fresh.ID {
		t.Fatalf("got %v, want only the event published after opening", got)
	}
}

// Rule: a relay that refuses the subscription ends Follow with its reason.
func TestFollowEndsWithTheRelaysClosedReason(t *testing.T) {
	r := devrelay.StartN(t, 1, devrelay.Options{Misbehave: devrelay.Misbehaviour{
		RefuseREQ: func(nostr.Filter) string { return "blocked: no live feeds here" },
	}})[0]
	pool := relaypool.New(relaypool.Options{Timeout: 2 * time.Second})
	defer pool.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := pool.Follow(ctx, r.URL(), []nostr.Filter{{Kinds: []int{30617}}}, relaypool.FollowOptions{})
	if !errors.Is(err, relaypool.ErrFollowClosed) || !strings.Contains(err.Error(), "no live feeds here") {
		t.Fatalf("Follow = %v, want the relay's CLOSED reason", err)
	}
}
