package groups

import (
	"fmt"
	"strconv"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/pipeline"
)

// CacheKey is where one relay's signed state event of kind for group id is
// cached: a group is per relay, so the relay is part of the key.
func CacheKey(relay, id string, kind int) string {
	return "nip-29:" + relay + "'" + id + ":" + strconv.Itoa(kind)
}

// Keep stores a relay's verified group state events and NIP-11 document,
// so that the admins' pubkeys are known when the relay is down (nip-29.md
// "Detecting migrations and forks": they SHOULD be cached). An older event
// never replaces a newer cached one. The problems are returned as lines.
func Keep(store pipeline.Store, rr RelayRead) []string {
	var problems []string
	if rr.Info != nil {
		_ = store.PutRelayInfo(rr.URL, rr.Info)
	}
	if rr.Group == nil {
		return nil
	}
	for _, e := range rr.Group.Events {
		key := CacheKey(rr.URL, rr.Group.ID, e.Kind)
		if old, err := store.Projection(key); err == nil && old != nil && old.ID != e.ID &&
			(old.CreatedAt > e.CreatedAt || old.CreatedAt == e.CreatedAt && old.ID < e.ID) {
			continue
		}
		if err := store.PutProjection(key, e); err != nil {
			problems = append(problems, fmt.Sprintf("could not cache group %s's kind %d from %s (%v)", rr.Group.ID, e.Kind, rr.URL, err))
		}
	}
	return problems
}

// Cached is group id's state as relay last signed it, from store, verified
// again against the relay's cached NIP-11 self; found is false when
// nothing verifies.
func Cached(store pipeline.Store, relay, id string) (st State, found bool) {
	self, _ := store.CachedSelf(relay)
	var evs []*nostr.Event
	for _, k := range StateKinds {
		if e, err := store.Projection(CacheKey(relay, id, k)); err == nil && e != nil {
			evs = append(evs, e)
		}
	}
	st = Build(id, self, evs)
	return st, len(st.Sources) > 0
}

// StatusCache is the status of a relay answered from the cache.
const StatusCache = "cache"

// ReadStore answers a read offline: each relay's cached state (Cached),
// with status "cache" and Complete false, since a cached event is not
// proof it is still the relay's latest.
func ReadStore(store pipeline.Store, relays []string, id string) ReadResult {
	out := ReadResult{}
	for _, u := range relays {
		st, found := Cached(store, u, id)
		self, _ := store.CachedSelf(u)
		out.Relays = append(out.Relays, RelayRead{URL: u, Status: StatusCache, Self: self, Found: found, Live: st.Live(), Group: &st})
		out.Found = out.Found || found
	}
	return out
}
