// Package cache is roster's local store: a bbolt file in the cache directory
// holding verified events (by id; of replaceable and addressable kinds only
// the latest per address by NIP-01 order), the addresses and ids kind 5
// deletions target, relay NIP-11 documents and verified projections. It backs
// --offline: Query answers discovery filters from the file alone.
//
// The file is bounded (bounds.go): events over MaxEventBytes are skipped,
// and past the cap (DefaultMaxBytes) the least recently read events are
// evicted, compacting the file when bbolt cannot reuse the freed pages.
//
// Open a Cache once per invocation and Close it: bbolt locks the file, and a
// second Open (even in the same process) waits for the lock until its timeout.
// A caller that needs the file while another part of the same invocation has
// it open takes a Hold on the open Cache instead of opening it again.
package cache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// SchemaVersion is the layout this code reads and writes. Bump it (and add
// a migration or a clear-and-refetch) whenever a bucket's meaning changes.
const SchemaVersion = 1

// FileName is the cache file inside the cache directory.
const FileName = "cache.db"

// DefaultOpenTimeout bounds how long Open waits for another roster process
// holding the file lock.
const DefaultOpenTimeout = 2 * time.Second

// Buckets. Keys are described next to each.
var (
	bucketMeta        = []byte("meta")        // "schema" -> decimal version; counters (bounds.go)
	bucketEvents      = []byte("events")      // event id (hex) -> event JSON
	bucketByKind      = []byte("by-kind")     // 4-byte big-endian kind + id -> nil
	bucketLatest      = []byte("latest")      // "kind:pubkey:d" -> id of the NIP-01 winner
	bucketDeletions   = []byte("deletions")   // "e:<id>\x00<deletion id>" or "a:<addr>\x00<deletion id>" -> nil
	bucketRelays      = []byte("relays")      // normalized relay URL -> RelayInfo JSON
	bucketProjections = []byte("projections") // caller's key -> event JSON
	bucketAccess      = []byte("access")      // event id -> 8-byte big-endian tick of its last read or write
	bucketPeople      = []byte("people")      // "checked:<pubkey>" -> 8-byte time; "nip05:<name>" -> NIP05Check JSON (people.go)
	bucketComplete    = []byte("complete")    // "30617:pubkey:d" -> 8-byte tick + JSON of the last version with more role records (complete.go)
	// allBuckets must exist in a schema 1 file; addedBuckets came later
	// within schema 1 and are created when missing, so a file written by an
	// older roster stays readable (and one written by this roster stays
	// readable by the older one, which ignores them).
	allBuckets   = [][]byte{bucketMeta, bucketEvents, bucketByKind, bucketLatest, bucketDeletions, bucketRelays, bucketProjections}
	addedBuckets = [][]byte{bucketAccess, bucketPeople, bucketComplete}
	keySchema    = []byte("schema")
)

// Cache is a handle on an open cache file: the one Open returned, or one
// Hold added. Closing the last handle closes the file.
type Cache struct {
	*file
	// released is set by this handle's Close: a second Close of the same
	// handle releases nothing more.
	released atomic.Bool
}

// file is the open cache file its handles share.
type file struct {
	// mu is held shared by every transaction and exclusively to swap db
	// for its compacted copy, and to close it.
	mu     sync.RWMutex
	db     *bolt.DB
	closed bool
	// handles counts the handles not closed yet (guarded by mu).
	handles  int
	path     string
	maxBytes int64
	timeout  time.Duration

	reads reads // pending read records, written with the next write or on Close

	// readOnly is why the file was opened read-only (nil: writable): every
	// write then fails with it, and reads go on (docs/cache.md "Read-only").
	readOnly *Error
}

// Options tune Open.
type Options struct {
	// Timeout is how long to wait for the file lock; 0 means DefaultOpenTimeout.
	Timeout time.Duration
	// MaxBytes caps the file's size on disk; 0 means DefaultMaxBytes, and
	// anything below MinMaxBytes is raised to it.
	MaxBytes int64
	// ReadOnly opens the file read-only even when it could be written, as
	// Open does by itself when the operating system denies writing it.
	ReadOnly bool
}

// Path returns the cache file path for a cache directory.
func Path(home string) string { return filepath.Join(home, FileName) }

// Open opens (creating if needed) <home>/cache.db. A corrupt file, a file from
// a newer roster or a file locked by another process returns an *Error that
// names the file and the way out; it never panics.
func Open(home string) (*Cache, error) { return OpenWith(home, Options{}) }

// OpenWith is Open with options.
func OpenWith(home string, o Options) (*Cache, error) {
	if home == "" {
		return nil, errors.New("no roster home: set ROSTER_HOME or pass --home")
	}
	path := Path(home)
	// A file that cannot be written is opened read-only, so reads and
	// --offline still work; only a missing one needs its directory.
	denied := writeDenied(path)
	if o.ReadOnly && denied == nil {
		denied = errors.New("opened read-only")
	}
	if denied != nil {
		return openReadOnly(path, o, denied)
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, &Error{Path: path, Reason: ReasonUnreadable, Err: fmt.Errorf("creating its directory: %w", err)}
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultOpenTimeout
	}
	maxBytes := o.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	maxBytes = max(maxBytes, MinMaxBytes)
	// A file already over the cap (written under a larger cap, or by a
	// roster without one) is opened unbounded, then evicted and compacted
	// into a bounded copy before it is used.
	oversized := false
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() > maxBytes {
		oversized = true
	}
	limit := maxBytes
	if oversized {
		limit = 0
	}
	db, err := openBolt(path, timeout, limit)
	if err != nil {
		return nil, classifyOpenError(path, err)
	}
	c := &Cache{file: &file{db: db, path: path, maxBytes: maxBytes, timeout: timeout, handles: 1}}
	if err := c.checkSchema(); err != nil {
		_ = db.Close()
		return nil, err
	}
	if oversized {
		if err := c.shrink(); err != nil {
			_ = c.db.Close()
			return nil, &Error{Path: path, Reason: ReasonUnreadable, Err: fmt.Errorf("shrinking it under %d bytes: %w", maxBytes, err)}
		}
	}
	return c, nil
}

// writeDenied is the operating system's refusal to open path for writing
// (permissions, a read-only file system), or nil: writable, or missing, or
// unusable for another reason that bolt.Open reports. Asking the file
// itself is the only answer that holds for root, ACLs and mounts alike.
func writeDenied(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err == nil {
		_ = f.Close()
		return nil
	}
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return err
	}
	return nil
}

// openReadOnly opens an existing file with a shared lock, for reading only:
// no schema initialization, no shrinking, no recorded reads.
func openReadOnly(path string, o Options, why error) (*Cache, error) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultOpenTimeout
	}
	db, err := openBoltWith(path, timeout, 0, true)
	if err != nil {
		return nil, classifyOpenError(path, err)
	}
	maxBytes := o.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	c := &Cache{file: &file{db: db, path: path, maxBytes: max(maxBytes, MinMaxBytes), timeout: timeout, handles: 1,
		readOnly: &Error{Path: path, Reason: ReasonReadOnly, Err: why}}}
	if err := c.checkSchemaReadOnly(); err != nil {
		_ = db.Close()
		return nil, err
	}
	return c, nil
}

// ReadOnly is why the cache was opened read-only (an *Error with
// ReasonReadOnly, which every write returns), or nil when it is writable.
// A write pipeline that must keep what it publishes asks before it starts.
func (c *Cache) ReadOnly() error {
	if c.readOnly == nil {
		return nil
	}
	return c.readOnly
}

// errOpenPanic is a panic inside bolt.Open, turned into an error.
type errOpenPanic struct{ v any }

func (e errOpenPanic) Error() string { return fmt.Sprint(e.v) }

// errReplaced means the file was replaced (by another process's
// compaction) while this one waited for its lock.
var errReplaced = errors.New("cache file was replaced while waiting for its lock")

// openBolt opens and locks the file at path, waiting up to timeout for the
// lock, with the file capped at maxSize bytes (0: no cap).
func openBolt(path string, timeout time.Duration, maxSize int64) (*bolt.DB, error) {
	return openBoltWith(path, timeout, maxSize, false)
}

// openBoltWith is openBolt, read-only (a shared lock) when readOnly.
func openBoltWith(path string, timeout time.Duration, maxSize int64, readOnly bool) (*bolt.DB, error) {
	deadline := time.Now().Add(timeout)
	for {
		db, err := openBoltOnce(path, time.Until(deadline), maxSize, readOnly)
		if !errors.Is(err, errReplaced) {
			return db, err
		}
		if time.Until(deadline) <= 0 {
			return nil, bolterrors.ErrTimeout
		}
	}
}

func openBoltOnce(path string, timeout time.Duration, maxSize int64, readOnly bool) (db *bolt.DB, err error) {
	if timeout <= 0 {
		return nil, bolterrors.ErrTimeout
	}
	// bbolt panics on some malformed pages (a damaged freelist, say) after
	// it has opened and locked the file, and the half-open DB never reaches
	// us: keep the file it opened so a panic can release the lock and the
	// descriptor. Otherwise every later Open in this process would wait out
	// its timeout and report "locked by another roster process".
	var file *os.File
	openFile := func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	defer func() {
		// A cache must never crash roster.
		if r := recover(); r != nil {
			if file != nil {
				releaseFile(file)
			}
			db, err = nil, errOpenPanic{r}
		}
	}()
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, OpenFile: openFile, MaxSize: int(maxSize), ReadOnly: readOnly})
	if err != nil {
		return nil, err
	}
	if maxSize > 0 {
		db.AllocSize = growStep(maxSize)
	}
	// While this process waited for the lock, the process holding it may
	// have compacted the cache into a new file and renamed it over this
	// one: the lock is then on a file nobody else will read. Start over on
	// the file now at path.
	held, err1 := file.Stat()
	now, err2 := os.Stat(path)
	if err1 == nil && err2 == nil && !os.SameFile(held, now) {
		_ = db.Close()
		return nil, errReplaced
	}
	return db, nil
}

// classifyOpenError turns a bolt.Open failure into an *Error naming the way out.
func classifyOpenError(path string, err error) error {
	if errors.Is(err, bolterrors.ErrTimeout) {
		return &Error{Path: path, Reason: ReasonLocked, Err: err}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		// The operating system refused (permissions, a directory in the
		// way): clearing would not help, and saying "corrupt" would mislead.
		return &Error{Path: path, Reason: ReasonUnreadable, Err: err}
	}
	return &Error{Path: path, Reason: ReasonCorrupt, Err: err}
}

// checkSchema initializes an empty file and refuses files it cannot read.
func (c *Cache) checkSchema() error {
	return c.update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			empty := true
			_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
			if !empty {
				return &Error{Path: c.path, Reason: ReasonCorrupt, Err: errors.New("it has no schema version: not a roster cache")}
			}
			for _, b := range allBuckets {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			for _, b := range addedBuckets {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			return tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(SchemaVersion)))
		}
		v, err := strconv.Atoi(string(meta.Get(keySchema)))
		if err != nil || v < 1 {
			return &Error{Path: c.path, Reason: ReasonCorrupt, Err: fmt.Errorf("unreadable schema version %q", meta.Get(keySchema))}
		}
		if v > SchemaVersion {
			return &Error{Path: c.path, Reason: ReasonNewerSchema, Schema: v}
		}
		for _, b := range allBuckets {
			if tx.Bucket(b) == nil {
				return &Error{Path: c.path, Reason: ReasonCorrupt, Err: fmt.Errorf("bucket %s is missing", b)}
			}
		}
		if tx.Bucket(bucketAccess) == nil {
			// A file from before the cache kept only the latest event per
			// address: drop the superseded versions it still holds.
			if _, err := tx.CreateBucketIfNotExists(bucketAccess); err != nil {
				return err
			}
			if err := pruneSuperseded(tx); err != nil {
				return err
			}
		}
		for _, b := range addedBuckets {
			if tx.Bucket(b) == nil {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
		}
		c.reads.clock = getCounter(meta, keyClock)
		return nil
	})
}

// checkSchemaReadOnly is checkSchema for a file it may not write: one it
// would have to initialize or migrate is refused (as corrupt when it holds
// no roster cache), anything this roster reads is used as it is.
func (c *Cache) checkSchemaReadOnly() error {
	return c.view(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			return &Error{Path: c.path, Reason: ReasonCorrupt, Err: errors.New("it has no schema version: not a roster cache")}
		}
		v, err := strconv.Atoi(string(meta.Get(keySchema)))
		if err != nil || v < 1 {
			return &Error{Path: c.path, Reason: ReasonCorrupt, Err: fmt.Errorf("unreadable schema version %q", meta.Get(keySchema))}
		}
		if v > SchemaVersion {
			return &Error{Path: c.path, Reason: ReasonNewerSchema, Schema: v}
		}
		for _, b := range allBuckets {
			if tx.Bucket(b) == nil {
				return &Error{Path: c.path, Reason: ReasonCorrupt, Err: fmt.Errorf("bucket %s is missing", b)}
			}
		}
		c.reads.clock = getCounter(meta, keyClock)
		return nil
	})
}

// FilePath is the file this cache lives in.
func (c *Cache) FilePath() string { return c.path }

// Close releases this handle; closing the last handle records what was read
// (for eviction, docs/cache.md "Size") and releases the file lock. Closing
// twice is harmless.
func (c *Cache) Close() error {
	if !c.released.CompareAndSwap(false, true) {
		return nil
	}
	c.mu.Lock()
	c.handles--
	last := c.handles == 0
	c.mu.Unlock()
	if !last {
		return nil
	}
	flushErr := c.flushReads()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	return errors.Join(flushErr, c.db.Close())
}

// Hold is one more handle on the open file, for a part of the same
// invocation that needs the cache while another part has it open: opening
// the file again would wait for the invocation's own lock until the open
// timeout. Each handle is closed on its own; closing the last one writes the
// pending reads and closes the file. ok is false once every handle was
// closed (then open the file again).
func (c *Cache) Hold() (h *Cache, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.handles == 0 {
		return nil, false
	}
	c.handles++
	return &Cache{file: c.file}, true
}

// Clear removes <home>/cache.db. A missing file is not an error. It does not
// open the file, so it also works on a corrupt or newer-schema cache.
func Clear(home string) error {
	err := os.Remove(Path(home))
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("remove cache %s: the operating system does not permit it (%w): make its directory writable, or pass --home <another directory>", Path(home), err)
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove cache %s: %w", Path(home), err)
	}
	return nil
}

// view and update run a transaction and turn a bbolt panic on a damaged page
// into an *Error instead of crashing.
func (c *Cache) view(fn func(*bolt.Tx) error) (err error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	defer c.recoverCorrupt(&err)
	return c.corrupt(c.db.View(fn))
}

func (c *Cache) update(fn func(*bolt.Tx) error) error { return c.updateHeld(false, fn) }

// updateHeld is update for a caller that may hold c.mu exclusively (held).
func (c *Cache) updateHeld(held bool, fn func(*bolt.Tx) error) (err error) {
	if !held {
		c.mu.RLock()
		defer c.mu.RUnlock()
	}
	defer c.recoverCorrupt(&err)
	return c.corrupt(c.db.Update(fn))
}

// corrupt turns an undecodable stored record into an *Error naming the fix.
func (c *Cache) corrupt(err error) error {
	if errors.Is(err, errBadRecord) {
		return &Error{Path: c.path, Reason: ReasonCorrupt, Err: err}
	}
	return err
}

func (c *Cache) recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = &Error{Path: c.path, Reason: ReasonCorrupt, Err: fmt.Errorf("%v", r)}
	}
}
