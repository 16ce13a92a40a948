// Package cache is roster's local store: a bbolt file under the roster home
// holding verified events (every one by id, plus the latest addressable event
// per (kind, pubkey, d) by NIP-01 order), the addresses and ids kind 5
// deletions target, relay NIP-11 documents and verified projections. It backs
// --offline: Query answers discovery filters from the file alone.
//
// Open a Cache once per invocation and Close it: bbolt locks the file, and a
// second Open (even in the same process) waits for the lock until its timeout.
package cache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// SchemaVersion is the layout this code reads and writes. Bump it (and add
// a migration or a clear-and-refetch) whenever a bucket's meaning changes.
const SchemaVersion = 1

// FileName is the cache file inside the roster home.
const FileName = "cache.db"

// DefaultOpenTimeout bounds how long Open waits for another roster process
// holding the file lock.
const DefaultOpenTimeout = 2 * time.Second

// Buckets. Keys are described next to each.
var (
	bucketMeta        = []byte("meta")        // "schema" -> decimal version
	bucketEvents      = []byte("events")      // event id (hex) -> event JSON
	bucketByKind      = []byte("by-kind")     // 4-byte big-endian kind + id -> nil
	bucketLatest      = []byte("latest")      // "kind:pubkey:d" -> id of the NIP-01 winner
	bucketDeletions   = []byte("deletions")   // "e:<id>\x00<deletion id>" or "a:<addr>\x00<deletion id>" -> nil
	bucketRelays      = []byte("relays")      // normalized relay URL -> RelayInfo JSON
	bucketProjections = []byte("projections") // caller's key -> event JSON
	allBuckets        = [][]byte{bucketMeta, bucketEvents, bucketByKind, bucketLatest, bucketDeletions, bucketRelays, bucketProjections}
	keySchema         = []byte("schema")
)

// Cache is an open cache file.
type Cache struct {
	db   *bolt.DB
	path string
}

// Options tune Open.
type Options struct {
	// Timeout is how long to wait for the file lock; 0 means DefaultOpenTimeout.
	Timeout time.Duration
}

// Path returns the cache file path for a roster home.
func Path(home string) string { return filepath.Join(home, FileName) }

// Open opens (creating if needed) <home>/cache.db. A corrupt file, a file from
// a newer roster or a file locked by another process returns an *Error that
// names the file and the way out; it never panics.
func Open(home string) (*Cache, error) { return OpenWith(home, Options{}) }

// OpenWith is Open with options.
func OpenWith(home string, o Options) (c *Cache, err error) {
	if home == "" {
		return nil, errors.New("no roster home: set ROSTER_HOME or pass --home")
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("create roster home %s: %w", home, err)
	}
	path := Path(home)
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultOpenTimeout
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
			c, err = nil, &Error{Path: path, Reason: ReasonCorrupt, Err: fmt.Errorf("%v", r)}
		}
	}()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, OpenFile: openFile})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, &Error{Path: path, Reason: ReasonLocked, Err: err}
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			// The operating system refused (permissions, a directory in the
			// way): clearing would not help, and saying "corrupt" would mislead.
			return nil, &Error{Path: path, Reason: ReasonUnreadable, Err: err}
		}
		return nil, &Error{Path: path, Reason: ReasonCorrupt, Err: err}
	}
	c = &Cache{db: db, path: path}
	if err := c.checkSchema(); err != nil {
		_ = db.Close()
		return nil, err
	}
	return c, nil
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
		return nil
	})
}

// FilePath is the file this cache lives in.
func (c *Cache) FilePath() string { return c.path }

// Close releases the file lock.
func (c *Cache) Close() error { return c.db.Close() }

// Clear removes <home>/cache.db. A missing file is not an error. It does not
// open the file, so it also works on a corrupt or newer-schema cache.
func Clear(home string) error {
	err := os.Remove(Path(home))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove cache %s: %w", Path(home), err)
	}
	return nil
}

// view and update run a transaction and turn a bbolt panic on a damaged page
// into an *Error instead of crashing.
func (c *Cache) view(fn func(*bolt.Tx) error) (err error) {
	defer c.recoverCorrupt(&err)
	return c.corrupt(c.db.View(fn))
}

func (c *Cache) update(fn func(*bolt.Tx) error) (err error) {
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
