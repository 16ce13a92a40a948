package projects

import (
	"encoding/json"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// mapStore is a pipeline.Store in memory.
type mapStore struct {
	proj  map[string]*nostr.Event
	infos map[string]json.RawMessage
}

func (m *mapStore) PutProjection(key string, evt *nostr.Event) error { m.proj[key] = evt; return nil }
func (m *mapStore) Projection(key string) (*nostr.Event, error)      { return m.proj[key], nil }
func (m *mapStore) PutRelayInfo(url string, doc json.RawMessage) error {
	m.infos[url] = doc
	return nil
}
func (m *mapStore) CachedSelf(string) (string, bool) { return "", false }

// Rule (Project State revisions only grow): the offline cache keeps each
// relay's newest verified projection; an older one read later never
// replaces it, and the relay's NIP-11 document is kept beside it.
func TestKeepNeverReplacesANewerCachedProjection(t *testing.T) {
	c := Coordinate{Owner: "ab", D: "p"}
	st := &State{Coordinate: c}
	newer := &nostr.Event{ID: "b", CreatedAt: 200}
	older := &nostr.Event{ID: "a", CreatedAt: 100}
	m := &mapStore{proj: map[string]*nostr.Event{}, infos: map[string]json.RawMessage{}}
	read := func(e *nostr.Event) ReadResult {
		return ReadResult{Relays: []RelayRead{{URL: "ws://r", Event: e, State: st, Info: json.RawMessage(`{"self":"x"}`)}}}
	}
	if p := Keep(m, read(newer)); len(p) != 0 {
		t.Fatal(p)
	}
	Keep(m, read(older))
	if got := m.proj[CacheKey("ws://r", c)]; got != newer {
		t.Fatalf("cached %v, want the newer projection", got)
	}
	if string(m.infos["ws://r"]) != `{"self":"x"}` {
		t.Fatalf("relay info %q", m.infos["ws://r"])
	}
	tie := &nostr.Event{ID: "0", CreatedAt: 200} // same second, lower id: NIP-01 keeps it
	Keep(m, read(tie))
	if got := m.proj[CacheKey("ws://r", c)]; got != tie {
		t.Fatalf("cached %v, want the lower id of a same-second tie", got)
	}
}
