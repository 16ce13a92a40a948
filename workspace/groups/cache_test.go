package groups

import (
	"encoding/json"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

type memStore struct {
	events map[string]*nostr.Event
	selves map[string]string
}

func (m *memStore) PutProjection(k string, e *nostr.Event) error { m.events[k] = e; return nil }
func (m *memStore) Projection(k string) (*nostr.Event, error)    { return m.events[k], nil }
func (m *memStore) PutRelayInfo(url string, doc json.RawMessage) error {
	var d struct{ Self string }
	_ = json.Unmarshal(doc, &d)
	m.selves[url] = d.Self
	return nil
}
func (m *memStore) CachedSelf(url string) (string, bool) { s, ok := m.selves[url]; return s, ok }

// Rule (nip-29.md "Detecting migrations and forks": the admins' pubkeys
// SHOULD be cached): Keep stores a relay's verified state per relay and
// id, an older version never replaces a newer one, and Cached verifies it
// again against the relay's cached self.
func TestGroupStateCachePerRelayNewestKept(t *testing.T) {
	alice, bob := pub(t, aliceSK), pub(t, bobSK)
	self := pub(t, relaySK)
	s := &memStore{events: map[string]*nostr.Event{}, selves: map[string]string{}}
	newer := Build(gid, self, []*nostr.Event{signed(t, relaySK, KindAdmins, 20, nostr.Tags{{"d", gid}, {"p", bob, "admin"}})})
	older := Build(gid, self, []*nostr.Event{signed(t, relaySK, KindAdmins, 10, nostr.Tags{{"d", gid}, {"p", alice, "owner"}})})
	info, _ := json.Marshal(map[string]string{"self": self})
	const url = "wss://g.example"
	if p := Keep(s, RelayRead{URL: url, Found: true, Group: &newer, Info: info}); len(p) != 0 {
		t.Fatal(p)
	}
	Keep(s, RelayRead{URL: url, Found: true, Group: &older})
	st, ok := Cached(s, url, gid)
	if !ok || st.RolesOf(bob) == nil || st.RolesOf(alice) != nil {
		t.Fatalf("cached %+v", st)
	}
	if _, ok := Cached(s, "wss://other.example", gid); ok {
		t.Fatal("another relay's cache answered")
	}
	s.selves[url] = pub(t, bobSK) // the relay's key is not the one that signed
	if _, ok := Cached(s, url, gid); ok {
		t.Fatal("cached state verified against another self")
	}
}
