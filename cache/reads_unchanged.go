package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"sort"

	bolt "go.etcd.io/bbolt"
)

// A warm read (roster repo --offline, run again and again) reads the same
// events and pins the same repository, in the same order, every time.
// Writing those reads again would change the ticks but not the order
// eviction follows (docs/cache.md "Least recently read"): the events read
// last time are already the most recently read ones, in this order, and the
// pins the newest pins. So a Close that would write only reads and pins
// first compares them with the last such Close: when nothing was written
// since (the stored clock is the one that Close saved) and the reads and
// pins are the same, in the same order, it writes nothing, and the read
// pays no write transaction and no fsync.

// keyLastReads (meta) is the last reads-only write: the clock it saved
// (8 bytes), then the digest of the reads and pins it wrote (readsDigest).
// Every other tracked write deletes it.
var keyLastReads = []byte("last-reads")

// readsDigest is the order the reads and pins set, as a digest: every read
// event id and every pinned coordinate (with its ids), in the order of their
// ticks, each with its rank, where equal ticks share a rank (one read call
// stamps its events alike). The ticks themselves are left out: the next
// session hands out other ticks for the same order.
func readsDigest(reads map[string]uint64, pins map[string]pin) [sha256.Size]byte {
	type stamp struct {
		tick uint64
		kind byte // 'e' for a read event, 'p' for a pin
		key  string
		ids  []string
	}
	all := make([]stamp, 0, len(reads)+len(pins))
	for id, t := range reads {
		all = append(all, stamp{tick: t, kind: 'e', key: id})
	}
	for k, p := range pins {
		all = append(all, stamp{tick: p.tick, kind: 'p', key: k, ids: p.ids})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].tick != all[j].tick {
			return all[i].tick < all[j].tick
		}
		if all[i].kind != all[j].kind {
			return all[i].kind < all[j].kind
		}
		return all[i].key < all[j].key
	})
	h := sha256.New()
	var rank uint64
	var num [8]byte
	for i, s := range all {
		if i > 0 && s.tick != all[i-1].tick {
			rank++
		}
		binary.BigEndian.PutUint64(num[:], rank)
		h.Write(num[:])
		h.Write([]byte{s.kind})
		writeField(h, s.key)
		binary.BigEndian.PutUint64(num[:], uint64(len(s.ids)))
		h.Write(num[:])
		for _, id := range s.ids {
			writeField(h, id)
		}
	}
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// writeField writes s with its length, so that no two lists of fields
// hash alike.
func writeField(h io.Writer, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}

// pendingDigest is readsDigest of what is pending now.
func (c *Cache) pendingDigest() [sha256.Size]byte {
	r := &c.reads
	r.mu.Lock()
	defer r.mu.Unlock()
	return readsDigest(r.pending, r.pins)
}

// readsUnchanged says whether writing the pending reads and pins would
// leave the eviction order as the last reads-only write left it, with
// nothing written since. Any doubt (an unreadable record, a failed read)
// answers false, and the reads are written.
func (c *Cache) readsUnchanged() bool {
	d := c.pendingDigest()
	same := false
	err := c.view(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		v := meta.Get(keyLastReads)
		same = len(v) == 8+len(d) &&
			readTick(v[:8]) == getCounter(meta, keyClock) &&
			bytes.Equal(v[8:], d[:])
		return nil
	})
	return err == nil && same
}

// noteLastReads records a reads-only write (readsOnly) with the clock it
// saved and the digest of what it wrote, or forgets the last one: any
// other write may have stamped events after them.
func noteLastReads(tx *bolt.Tx, readsOnly bool, clock uint64, written map[string]uint64, pins map[string]pin) error {
	meta := tx.Bucket(bucketMeta)
	if !readsOnly {
		return meta.Delete(keyLastReads)
	}
	d := readsDigest(written, pins)
	return meta.Put(keyLastReads, append(tickBytes(clock), d[:]...))
}
