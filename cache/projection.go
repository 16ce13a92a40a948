package cache

import (
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	bolt "go.etcd.io/bbolt"
)

// PutProjection stores a verified projection event (e.g. a relay-signed
// kind 30623) under a caller-chosen key. The id and signature are checked
// again. An older event (by NIP-01 order) never replaces a newer one under
// the same key, so a stale relay cannot roll the cached projection back; the
// return value says whether evt is now the stored one.
func (c *Cache) PutProjection(key string, evt *nostr.Event) (bool, error) {
	if key == "" {
		return false, errors.New("projection key is empty")
	}
	if !verified(evt) {
		return false, fmt.Errorf("projection %q: event fails the id or signature check; not cached", key)
	}
	raw, err := evt.MarshalJSON()
	if err != nil {
		return false, err
	}
	stored := false
	err = c.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketProjections)
		if cur := b.Get([]byte(key)); cur != nil {
			old, err := decodeEvent(cur)
			if err == nil && !Newer(evt, old) {
				stored = old.ID == evt.ID
				return nil
			}
		}
		stored = true
		return b.Put([]byte(key), raw)
	})
	return stored, err
}

// Projection returns the event stored under key, or nil.
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
