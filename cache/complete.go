package cache

import (
	"bytes"
	"encoding/json"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	bolt "go.etcd.io/bbolt"
)

// The last complete versions: when a repository announcement (kind 30617)
// is replaced by one with fewer role records (M, m, o), the version it
// replaced is kept beside the latest, one per address, so that a republish
// by a client that does not keep role records can be reported and undone
// (graph.LostRoleRecords, `roster repo repair`). A later version with at
// least as many role records drops it. Bounded: at most MaxCompleteVersions
// addresses (the least recently stored go first), none over
// MaxCompleteBytes.
const (
	MaxCompleteVersions = 64
	MaxCompleteBytes    = 64 << 10
)

// keepComplete is called when evt replaces cur at address key.
func keepComplete(tx *bolt.Tx, key []byte, cur, evt *nostr.Event, tick uint64) error {
	if evt.Kind != graph.KindAnnouncement {
		return nil
	}
	b := tx.Bucket(bucketComplete)
	if b == nil {
		return nil // a file opened before the bucket existed is migrated on open
	}
	have, newer := graph.CountRoleRecords(cur), graph.CountRoleRecords(evt)
	if newer >= have {
		if old := b.Get(key); old != nil {
			if prev := decodeComplete(old); prev == nil || newer >= graph.CountRoleRecords(prev) {
				return b.Delete(key)
			}
		}
		return nil
	}
	raw, err := json.Marshal(cur)
	if err != nil || len(raw) > MaxCompleteBytes {
		return err
	}
	if b.Get(key) == nil {
		if err := makeCompleteRoom(b); err != nil {
			return err
		}
	}
	return b.Put(key, append(tickBytes(tick), raw...))
}

// makeCompleteRoom drops the least recently stored entries until one more
// fits under MaxCompleteVersions.
func makeCompleteRoom(b *bolt.Bucket) error {
	for {
		n := 0
		var oldest []byte
		var oldestTick uint64
		err := b.ForEach(func(k, v []byte) error {
			n++
			if len(v) >= 8 {
				if t := readTick(v[:8]); oldest == nil || t < oldestTick {
					oldest, oldestTick = bytes.Clone(k), t
				}
			}
			return nil
		})
		if err != nil || n < MaxCompleteVersions || oldest == nil {
			return err
		}
		if err := b.Delete(oldest); err != nil {
			return err
		}
	}
}

func decodeComplete(v []byte) *nostr.Event {
	if len(v) < 8 {
		return nil
	}
	var e nostr.Event
	if json.Unmarshal(v[8:], &e) != nil {
		return nil
	}
	return &e
}

// LastComplete returns the kept last complete versions of the kind 30617
// announcements with identifier (see keepComplete), one per author. They
// were verified when stored; each is checked again here.
func (c *Cache) LastComplete(identifier string) ([]*nostr.Event, error) {
	var out []*nostr.Event
	err := c.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketComplete)
		if b == nil {
			return nil
		}
		return b.ForEach(func(_, v []byte) error {
			if e := decodeComplete(v); e != nil && e.Kind == graph.KindAnnouncement && e.Tags.GetD() == identifier && idAndSignatureValid(e) {
				out = append(out, e)
			}
			return nil
		})
	})
	sortEvents(out)
	return out, err
}
