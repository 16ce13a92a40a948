package cache

import (
	"sort"

	bolt "go.etcd.io/bbolt"
)

// Pins keep the repositories this home used most recently out of eviction
// (docs/cache.md "Pinned repositories"). Least-recently-read eviction alone
// lets anyone evict them: reading another repository whose people publish
// large events makes those events the most recently read, and a flood of
// them pushes the home's own repository out, and with it the --offline
// view and the stale-relays guard (a newer version this home verified is
// what a relay's older answer is compared with).
//
// A pin names a coordinate and the events that make up its view (the
// announcements, states and deletions of the people reached); Pin records
// it in memory and the next write (or Close) stores it, as reads are. Only
// the MaxPins most recently pinned coordinates count, each with at most
// MaxPinnedEvents events, and all pinned events together at most an eighth
// of the cap (newest pin first): pins cannot fill the file either.
const (
	MaxPins         = 16
	MaxPinnedEvents = 1024
)

// bucketPins: coordinate -> 8-byte big-endian tick of the pin, then the
// pinned event ids (64 hex characters each).
var bucketPins = []byte("pins")

type pin struct {
	tick uint64
	ids  []string
}

// Pin records that the view of coordinate (an "a" tag value, or any key
// the caller names a repository by) is made of the events ids: they are
// not evicted while coordinate is among the MaxPins most recent pins. A
// later Pin of the same coordinate replaces its ids. It is stored with the
// next write, or by Close.
func (c *Cache) Pin(coordinate string, ids ...string) {
	if c.readOnly != nil || coordinate == "" {
		return
	}
	var keep []string
	seen := map[string]bool{}
	for _, id := range ids {
		if len(id) == 64 && !seen[id] && len(keep) < MaxPinnedEvents {
			seen[id] = true
			keep = append(keep, id)
		}
	}
	r := &c.reads
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pins == nil {
		r.pins = map[string]pin{}
	}
	r.clock++
	r.pins[coordinate] = pin{tick: r.clock, ids: keep}
}

// writePins stores the pending pins in tx, drops the pins beyond the MaxPins
// most recent, and returns what it wrote, to forget once tx commits.
func (c *Cache) writePins(tx *bolt.Tx) (map[string]pin, error) {
	r := &c.reads
	r.mu.Lock()
	pending := make(map[string]pin, len(r.pins))
	for k, p := range r.pins {
		pending[k] = p
	}
	r.mu.Unlock()
	if len(pending) == 0 {
		return nil, nil
	}
	b, err := tx.CreateBucketIfNotExists(bucketPins)
	if err != nil {
		return nil, err
	}
	for k, p := range pending {
		v := make([]byte, 0, 8+64*len(p.ids))
		v = append(v, tickBytes(p.tick)...)
		for _, id := range p.ids {
			v = append(v, id...)
		}
		if err := b.Put([]byte(k), v); err != nil {
			return nil, err
		}
	}
	all := readPins(tx)
	if len(all) > MaxPins {
		for _, k := range pinOrder(all)[MaxPins:] {
			if err := b.Delete([]byte(k)); err != nil {
				return nil, err
			}
		}
	}
	return pending, nil
}

func (c *Cache) forgetPins(written map[string]pin) {
	r := &c.reads
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, p := range written {
		if cur, ok := r.pins[k]; ok && cur.tick == p.tick {
			delete(r.pins, k)
		}
	}
}

// readPins is every stored pin.
func readPins(tx *bolt.Tx) map[string]pin {
	out := map[string]pin{}
	b := tx.Bucket(bucketPins)
	if b == nil {
		return out
	}
	_ = b.ForEach(func(k, v []byte) error {
		if len(v) < 8 {
			return nil
		}
		p := pin{tick: readTick(v[:8])}
		for rest := v[8:]; len(rest) >= 64; rest = rest[64:] {
			p.ids = append(p.ids, string(rest[:64]))
		}
		out[string(k)] = p
		return nil
	})
	return out
}

// pinOrder is the pinned coordinates, most recent first.
func pinOrder(pins map[string]pin) []string {
	keys := make([]string, 0, len(pins))
	for k := range pins {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if pins[keys[i]].tick != pins[keys[j]].tick {
			return pins[keys[i]].tick > pins[keys[j]].tick
		}
		return keys[i] < keys[j]
	})
	return keys
}

// pinned is the set of event ids eviction keeps: the events of the MaxPins
// most recent pins, newest pin first, while their sizes (size) add up to at
// most budget bytes; a pin that does not fit whole is not kept at all, so
// an older repository is never kept in part.
func pinned(pins map[string]pin, size map[string]int64, budget int64) map[string]bool {
	keep := map[string]bool{}
	var used int64
	for i, k := range pinOrder(pins) {
		if i == MaxPins {
			break
		}
		var cost int64
		var add []string
		for _, id := range pins[k].ids {
			if s, ok := size[id]; ok && !keep[id] {
				cost += s
				add = append(add, id)
			}
		}
		if used+cost > budget {
			continue
		}
		used += cost
		for _, id := range add {
			keep[id] = true
		}
	}
	return keep
}

// PinnedCoordinates are the stored pins, most recent first (for cache
// info and tests).
func (c *Cache) PinnedCoordinates() ([]string, error) {
	var out []string
	err := c.view(func(tx *bolt.Tx) error {
		out = pinOrder(readPins(tx))
		return nil
	})
	return out, err
}
