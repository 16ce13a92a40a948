package cache

import (
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	bolt "go.etcd.io/bbolt"
)

// PutProjection stores a verified projection event (e.g. a relay-signed
// kind 30623) under a caller-chosen key, replacing what was there. The id
// and signature are checked again and a failing event is refused. Which
// projection is current is the caller's decision (workspace revision rules
// are not NIP-01 created_at order), so the cache does not second-guess it.
func (c *Cache) PutProjection(key string, evt *nostr.Event) error {
	if key == "" {
		return errors.New("projection key is empty")
	}
	if !idAndSignatureValid(evt) {
		return fmt.Errorf("projection %q: event fails the id or signature check; not cached", key)
	}
	raw, err := evt.MarshalJSON()
	if err != nil {
		return err
	}
	return c.write(int64(len(raw))+entryOverhead, func(tx *bolt.Tx) error { return tx.Bucket(bucketProjections).Put([]byte(key), raw) })
}

// Projection returns the event stored under key, or nil, nil.
func (c *Cache) Projection(key string) (*nostr.Event, error) {
	var evt *nostr.Event
	err := c.view(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bucketProjections).Get([]byte(key))
		if raw == nil {
			return nil
		}
		var err error
		evt, err = decodeEvent(raw)
		return err
	})
	return evt, err
}
