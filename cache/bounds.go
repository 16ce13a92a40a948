package cache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The cache's bounds (docs/cache.md "Size"): relays decide what they send,
// so nothing they send may grow the file without limit.
const (
	// DefaultMaxBytes caps the file's size on disk.
	DefaultMaxBytes int64 = 64 << 20
	// MinMaxBytes is the smallest cap Options.MaxBytes can set.
	MinMaxBytes int64 = 1 << 20
	// MaxEventBytes is the largest event (its JSON) the cache stores;
	// bigger ones are skipped and counted.
	MaxEventBytes = 256 << 10
)

const (
	// maxGrowStep is the most bbolt grows the file by at a time (its
	// default, 16 MiB, would waste a quarter of the default cap); see
	// growStep.
	maxGrowStep = 1 << 20
	// entryOverhead estimates what an event costs beyond its JSON: its keys
	// in events, by-kind, access and latest, and B+tree page slack.
	entryOverhead = 512
)

// Meta keys for the cache's counters (8-byte big-endian).
var (
	keyClock     = []byte("clock")             // last tick handed out
	keyEvicted   = []byte("evicted")           // events evicted to stay under the cap, ever
	keyOversized = []byte("skipped-oversized") // events refused for being over MaxEventBytes, ever
)

// softLimit is the used size above which a write first evicts, down to
// lowWater: the headroom lets bbolt copy pages on write and lets the
// eviction itself commit without growing the file past the cap.
func (c *Cache) softLimit() int64 { return c.maxBytes * 3 / 4 }
func (c *Cache) lowWater() int64  { return c.maxBytes / 2 }

// growStep is how much bbolt grows the file by at a time: bbolt refuses a
// write when the file plus a step would pass the cap, so the step is kept
// small against it.
func growStep(maxBytes int64) int { return int(min(maxGrowStep, maxBytes/32)) }

// evictStep bounds how much one eviction transaction deletes.
func (c *Cache) evictStep() int64 { return c.maxBytes / 32 }

// chunkBytes bounds how much one write transaction adds, so that a large
// Put cannot overrun the headroom in a single commit.
func (c *Cache) chunkBytes() int64 { return c.maxBytes / 16 }

// reads are the ticks of events read since the last write: recording each
// read in its own write transaction would make every read pay an fsync, so
// they ride along with the next write, or with Close. The tick is a logical
// clock persisted in meta ("clock"): it orders reads and writes across
// sessions (one process holds the file at a time) without reading the wall
// clock.
type reads struct {
	mu      sync.Mutex
	clock   uint64
	pending map[string]uint64
	// pins are the pins recorded since the last write (pins.go).
	pins map[string]pin
}

// tick hands out the next logical time.
func (r *reads) tick() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clock++
	return r.clock
}

// touch records that events were read now.
func (c *Cache) touch(evts ...*nostr.Event) {
	if len(evts) == 0 {
		return
	}
	r := &c.reads
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending == nil {
		r.pending = map[string]uint64{}
	}
	r.clock++
	for _, e := range evts {
		r.pending[e.ID] = r.clock
	}
}

// writeReads stores the pending reads in tx and returns what it wrote, to
// forget once tx commits.
func (c *Cache) writeReads(tx *bolt.Tx) (map[string]uint64, error) {
	r := &c.reads
	r.mu.Lock()
	pending := make(map[string]uint64, len(r.pending))
	for id, t := range r.pending {
		pending[id] = t
	}
	r.mu.Unlock()
	access, events := tx.Bucket(bucketAccess), tx.Bucket(bucketEvents)
	for id, t := range pending {
		if events.Get([]byte(id)) == nil {
			continue // evicted or replaced since it was read
		}
		if err := access.Put([]byte(id), tickBytes(t)); err != nil {
			return nil, err
		}
	}
	return pending, nil
}

// saveClock persists the logical clock, after everything tx stamped with
// it, and returns the value it saved.
func (c *Cache) saveClock(tx *bolt.Tx) (uint64, error) {
	c.reads.mu.Lock()
	clock := c.reads.clock
	c.reads.mu.Unlock()
	return clock, putCounter(tx.Bucket(bucketMeta), keyClock, clock)
}

func (c *Cache) forgetReads(written map[string]uint64) {
	r := &c.reads
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, t := range written {
		if r.pending[id] == t {
			delete(r.pending, id)
		}
	}
}

// updateTracked is update with the pending reads written in the same
// transaction; held says the caller holds c.mu exclusively. A nil fn writes
// the reads alone, and records them for readsUnchanged.
func (c *Cache) updateTracked(held bool, fn func(*bolt.Tx) error) error {
	var written map[string]uint64
	var pins map[string]pin
	err := c.updateHeld(held, func(tx *bolt.Tx) error {
		var err error
		if written, err = c.writeReads(tx); err != nil {
			return err
		}
		if pins, err = c.writePins(tx); err != nil {
			return err
		}
		if fn != nil {
			if err := fn(tx); err != nil {
				return err
			}
		}
		clock, err := c.saveClock(tx)
		if err != nil {
			return err
		}
		return noteLastReads(tx, fn == nil, clock, written, pins)
	})
	if err == nil {
		c.forgetReads(written)
		c.forgetPins(pins)
	}
	return err
}

// flushReads writes pending reads, if any, unless writing them would leave
// the eviction order as it is (readsUnchanged).
func (c *Cache) flushReads() error {
	if c.readOnly != nil {
		return nil // reads are recorded for eviction, which a reader never does
	}
	c.reads.mu.Lock()
	n := len(c.reads.pending) + len(c.reads.pins)
	c.reads.mu.Unlock()
	c.mu.RLock()
	closed := c.closed
	c.mu.RUnlock()
	if n == 0 || closed || c.readsUnchanged() {
		return nil
	}
	return c.write(int64(n)*entryOverhead, nil)
}

// write runs fn, which adds about incoming bytes, in one transaction, with
// the pending reads, keeping the file under the cap: first it evicts the
// least recently read events if the file would pass the soft limit. bbolt
// itself refuses to grow the file past the cap; when that happens (the free
// pages are too scattered for what fn writes: a large event needs its pages
// in one run) the file is compacted, which leaves its free space in one run
// at the end, and the write is tried again. The last try runs alone (no
// reader can then pin freed pages: bbolt reuses a page only once every
// transaction older than its release has ended) after evicting down to
// half the low-water mark, and once more after compacting again.
func (c *Cache) write(incoming int64, fn func(*bolt.Tx) error) error {
	if c.readOnly != nil {
		return c.readOnly
	}
	for attempt := 0; attempt < 2; attempt++ {
		err := c.makeRoom(false, incoming, c.softLimit(), c.lowWater())
		if err == nil {
			err = c.updateTracked(false, fn)
		}
		if !errors.Is(err, bolterrors.ErrMaxSizeReached) {
			return err
		}
		if err := c.compact(); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return bolterrors.ErrDatabaseNotOpen
	}
	err := c.makeRoom(true, incoming, c.lowWater()/2, c.lowWater()/2)
	if err == nil {
		err = c.updateTracked(true, fn)
	}
	if errors.Is(err, bolterrors.ErrMaxSizeReached) {
		// Evicting alone left the free pages too scattered for this write:
		// compaction leaves them in one run at the end, so try once more;
		// only a write that still does not fit is refused.
		if cerr := c.compactLocked(); cerr != nil {
			return cerr
		}
		err = c.updateTracked(true, fn)
		if errors.Is(err, bolterrors.ErrMaxSizeReached) {
			return fmt.Errorf("cache %s stays full at its %d-byte cap even after evicting and compacting: %w", c.path, c.maxBytes, err)
		}
	}
	return err
}

// makeRoom evicts down to target bytes used when adding incoming bytes
// would take the file's use past trigger.
func (c *Cache) makeRoom(held bool, incoming, trigger, target int64) error {
	used, err := c.usedBytes(held)
	if err != nil {
		return err
	}
	if used+incoming <= trigger {
		return nil
	}
	_, err = c.evict(held, used+incoming-target)
	return err
}

// usedBytes is the file's data size less its free pages.
func (c *Cache) usedBytes(held bool) (int64, error) {
	var size int64
	if !held {
		c.mu.RLock()
		defer c.mu.RUnlock()
	}
	err := c.db.View(func(tx *bolt.Tx) error { size = tx.Size(); return nil })
	return size - int64(c.db.Stats().FreeAlloc), err
}

// evict deletes the least recently read (or written) events until about
// need bytes are freed, and returns how many it deleted. Events a roster
// before read tracking stored have no tick and go first. Pinned events
// (pins.go: the most recently used repositories, within an eighth of the
// cap) are not evicted.
//
// It deletes in steps of at most evictStep bytes, one transaction each:
// bbolt keeps at least two keys in every leaf page, so deleting a large
// event rewrites its neighbours too, and one transaction evicting much at
// once could itself need more new pages than the cap leaves. Each step's
// freed pages are there for the next.
func (c *Cache) evict(held bool, need int64) (int, error) {
	type candidate struct {
		id   string
		tick uint64
		size int64
	}
	var cands []candidate
	err := c.updateTracked(held, func(tx *bolt.Tx) error { // writes pending reads first: they count
		cands = cands[:0]
		access := tx.Bucket(bucketAccess)
		size := map[string]int64{}
		cur := tx.Bucket(bucketEvents).Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			size[string(k)] = int64(len(k)+len(v)) + entryOverhead
		}
		keep := pinned(readPins(tx), size, c.maxBytes/8)
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			if !keep[string(k)] {
				cands = append(cands, candidate{id: string(k), tick: readTick(access.Get(k)), size: int64(len(k)+len(v)) + entryOverhead})
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].tick != cands[j].tick {
			return cands[i].tick < cands[j].tick
		}
		return cands[i].id < cands[j].id
	})
	var freed int64
	evicted := 0
	for len(cands) > 0 && freed < need {
		var step []candidate
		var stepBytes int64
		for len(cands) > 0 && freed+stepBytes < need && (len(step) == 0 || stepBytes+cands[0].size <= c.evictStep()) {
			step = append(step, cands[0])
			stepBytes += cands[0].size
			cands = cands[1:]
		}
		n := 0
		err := c.updateTracked(held, func(tx *bolt.Tx) error {
			n = 0
			events := tx.Bucket(bucketEvents)
			for _, cd := range step {
				if events.Get([]byte(cd.id)) == nil {
					continue // replaced meanwhile
				}
				if err := deleteEvent(tx, cd.id); err != nil {
					return err
				}
				n++
			}
			meta := tx.Bucket(bucketMeta)
			return putCounter(meta, keyEvicted, getCounter(meta, keyEvicted)+uint64(n))
		})
		if err != nil {
			return evicted, err
		}
		freed += stepBytes
		evicted += n
	}
	return evicted, nil
}

// deleteEvent removes an event and every index entry that points at it.
func deleteEvent(tx *bolt.Tx, id string) error {
	events := tx.Bucket(bucketEvents)
	raw := events.Get([]byte(id))
	if raw == nil {
		return nil
	}
	// A record that does not decode is still removed; its index entries
	// then point at nothing, which readers already skip.
	if evt, err := decodeEvent(raw); err == nil {
		if err := tx.Bucket(bucketByKind).Delete(kindKey(evt.Kind, evt.ID)); err != nil {
			return err
		}
		if isReplaceable(evt.Kind) {
			latest := tx.Bucket(bucketLatest)
			key := []byte(addressKey(evt))
			if string(latest.Get(key)) == id {
				if err := latest.Delete(key); err != nil {
					return err
				}
			}
		}
		if evt.Kind == graph.KindDeletion {
			dels := tx.Bucket(bucketDeletions)
			for _, target := range deletionTargets(evt) {
				if err := dels.Delete([]byte(target + "\x00" + evt.ID)); err != nil {
					return err
				}
			}
		}
	}
	if err := tx.Bucket(bucketAccess).Delete([]byte(id)); err != nil {
		return err
	}
	return events.Delete([]byte(id))
}

// pruneSuperseded deletes replaceable and addressable events that are not
// their address's latest: files from before the cache kept only the latest.
func pruneSuperseded(tx *bolt.Tx) error {
	latest := tx.Bucket(bucketLatest)
	var stale []string
	err := tx.Bucket(bucketEvents).ForEach(func(k, v []byte) error {
		evt, err := decodeEvent(v)
		if err != nil {
			return err
		}
		if isReplaceable(evt.Kind) && string(latest.Get([]byte(addressKey(evt)))) != evt.ID {
			stale = append(stale, string(k))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range stale {
		if err := deleteEvent(tx, id); err != nil {
			return err
		}
	}
	return nil
}

// compact copies the live data into a new file, renames it over the old
// one and carries on with it: bbolt never gives freed pages back to the
// file system. The copy is opened (and locked) before the rename, so no
// other process can take the new file in between; one waiting for the old
// file's lock notices the rename (openBoltOnce) and waits for the new one.
func (c *Cache) compact() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return bolterrors.ErrDatabaseNotOpen
	}
	return c.compactLocked()
}

// compactLocked is compact for a caller holding c.mu exclusively.
func (c *Cache) compactLocked() error {
	tmp := c.path + ".compact"
	_ = os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: c.timeout, MaxSize: int(c.maxBytes)})
	if err != nil {
		return fmt.Errorf("compact cache %s: %w", c.path, err)
	}
	dst.AllocSize = growStep(c.maxBytes)
	fail := func(err error) error {
		_ = dst.Close()
		_ = os.Remove(tmp)
		return fmt.Errorf("compact cache %s: %w", c.path, err)
	}
	if err := bolt.Compact(dst, c.db, 4<<20); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, c.path); err != nil {
		return fail(err)
	}
	if dir, err := os.Open(filepath.Dir(c.path)); err == nil {
		_ = dir.Sync() // make the rename durable
		_ = dir.Close()
	}
	old := c.db
	c.db = dst
	return old.Close()
}

// shrink brings a file opened over its cap under it: evict down to the
// low-water mark, then compact into a file bbolt keeps under the cap.
func (c *Cache) shrink() error {
	used, err := c.usedBytes(false)
	if err != nil {
		return err
	}
	if used > c.lowWater() {
		if _, err := c.evict(false, used-c.lowWater()); err != nil {
			return err
		}
	}
	return c.compact()
}

func tickBytes(t uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], t)
	return b[:]
}

func readTick(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

func getCounter(meta *bolt.Bucket, key []byte) uint64 { return readTick(meta.Get(key)) }

func putCounter(meta *bolt.Bucket, key []byte, v uint64) error {
	return meta.Put(key, tickBytes(v))
}
