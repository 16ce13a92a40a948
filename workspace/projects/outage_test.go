package projects

import (
	"encoding/json"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/relaypool"
)

// selfStore is a pipeline.Store in memory whose relays have a cached self.
type selfStore struct {
	mapStore
	self map[string]string
}

func (s *selfStore) CachedSelf(url string) (string, bool) { v, ok := s.self[url]; return v, ok }

// Rule (a relay outage may show the last verified state, marked stale, but
// never a forged or answered-empty one): the fallback answers from the
// cache only when no relay that answered holds a projection and some relay
// did not answer; the cached projection is verified again against that
// relay's cached self, and every relay's live outcome is kept.
func TestTheOutageFallbackShowsOnlyAVerifiedCachedProjectionOfASilentRelay(t *testing.T) {
	c := testCoord(t)
	evt := stateEvent(t, c, "3", liveContent, nil)
	silent, answered := "ws://silent.example", "ws://answered.example"
	store := func(self string) *selfStore {
		s := &selfStore{mapStore: mapStore{proj: map[string]*nostr.Event{}, infos: map[string]json.RawMessage{}}, self: map[string]string{silent: self}}
		s.proj[CacheKey(silent, c)] = evt
		return s
	}
	outage := ReadResult{Relays: []RelayRead{
		{URL: answered, Status: relaypool.StatusOK, Projection: ProjectionNone},
		{URL: silent, Status: relaypool.StatusTimeout, Reason: "no EOSE within 5s"},
	}}

	got, reason, ok := OutageFallback(store(pub(t, relaySK)), c, outage)
	if !ok || got.Best == nil || got.Best.Revision != 3 || reason != silent+": timeout: no EOSE within 5s" {
		t.Fatalf("fallback: ok=%v best=%+v reason=%q", ok, got.Best, reason)
	}
	if len(got.Relays) != 2 || got.Relays[1].Status != relaypool.StatusTimeout || got.Complete {
		t.Fatalf("the live outcomes are not kept: %+v", got.Relays)
	}
	// Signed by another key than the silent relay's cached self: not shown.
	if _, _, ok := OutageFallback(store(pub(t, otherSK)), c, outage); ok {
		t.Fatal("a cached projection that does not verify against the relay's self was shown")
	}
	// Every relay answered: their (empty) answer stands.
	all := ReadResult{Complete: true, Relays: []RelayRead{{URL: answered, Status: relaypool.StatusOK}, {URL: silent, Status: relaypool.StatusOK}}}
	if _, _, ok := OutageFallback(store(pub(t, relaySK)), c, all); ok {
		t.Fatal("the cache answered although every relay did")
	}
	// A live projection is never replaced by the cache; no store, no fallback.
	live := outage
	live.Best = &State{Revision: 4}
	if got, _, ok := OutageFallback(store(pub(t, relaySK)), c, live); ok || got.Best.Revision != 4 {
		t.Fatal("the cache replaced a live projection")
	}
	if _, _, ok := OutageFallback(nil, c, outage); ok {
		t.Fatal("a fallback without a store")
	}
}
