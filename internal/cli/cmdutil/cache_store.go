package cmdutil

import (
	"encoding/json"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
)

// CacheStore is the cache as the workspace pipelines' store
// (pipeline.Store): projections by key, relays' NIP-11 documents.
type CacheStore struct {
	C *cache.Cache `json:"-"`
	A *Factory     `json:"-"`
}

// Close closes the cache (nothing when it was not opened).
func (s CacheStore) Close() error {
	if s.C == nil {
		return nil
	}
	return s.C.Close()
}

func (s CacheStore) PutProjection(key string, evt *nostr.Event) error {
	return s.C.PutProjection(key, evt)
}

func (s CacheStore) Projection(key string) (*nostr.Event, error) { return s.C.Projection(key) }

func (s CacheStore) PutRelayInfo(url string, doc json.RawMessage) error {
	return s.C.PutRelayInfo(url, doc, s.A.Io.Now())
}

func (s CacheStore) CachedSelf(url string) (string, bool) {
	if info, ok, _ := s.C.RelayInfo(url); ok {
		return info.Self, true
	}
	return "", false
}
