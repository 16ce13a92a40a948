package main

import (
	"encoding/json"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
)

// cacheStore is the cache as the workspace pipelines' store
// (pipeline.Store): projections by key, relays' NIP-11 documents.
type cacheStore struct {
	c *cache.Cache
	a *app
}

func (s cacheStore) PutProjection(key string, evt *nostr.Event) error {
	return s.c.PutProjection(key, evt)
}

func (s cacheStore) Projection(key string) (*nostr.Event, error) { return s.c.Projection(key) }

func (s cacheStore) PutRelayInfo(url string, doc json.RawMessage) error {
	return s.c.PutRelayInfo(url, doc, s.a.io.Now())
}

func (s cacheStore) CachedSelf(url string) (string, bool) {
	if info, ok, _ := s.c.RelayInfo(url); ok {
		return info.Self, true
	}
	return "", false
}
