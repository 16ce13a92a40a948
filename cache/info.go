package cache

import (
	"os"
	"sort"
	"strconv"

	"github.com/roster-cli/roster/graph"
	bolt "go.etcd.io/bbolt"
)

// Info describes a cache file for `roster cache info`.
type Info struct {
	Path      string `json:"path"`
	SizeBytes int64  `json:"size_bytes"`
	// MaxSizeBytes is the cap on SizeBytes; MaxEventBytes the largest
	// event stored.
	MaxSizeBytes  int64 `json:"max_size_bytes"`
	MaxEventBytes int   `json:"max_event_bytes"`
	Schema        int   `json:"schema_version"`
	Events        int   `json:"events"`
	// Kinds counts stored events per kind (JSON keys are decimal kinds).
	Kinds map[string]int `json:"kinds"`
	// Addresses is how many replaceable/addressable addresses have a latest event.
	Addresses   int      `json:"addresses"`
	Deletions   int      `json:"deletions"`
	Relays      []string `json:"relays"`
	Projections int      `json:"projections"`
	// Evicted counts events evicted to stay under the cap, and
	// SkippedOversized events refused for being over MaxEventBytes, over
	// the file's life.
	Evicted          uint64 `json:"evicted"`
	SkippedOversized uint64 `json:"skipped_oversized"`
}

// EmptyInfo describes a cache file that does not exist yet, under the
// default bounds.
func EmptyInfo(path string) Info {
	return Info{Path: path, MaxSizeBytes: DefaultMaxBytes, MaxEventBytes: MaxEventBytes, Kinds: map[string]int{}, Relays: []string{}}
}

// Info counts what the cache holds.
func (c *Cache) Info() (Info, error) {
	info := EmptyInfo(c.path)
	info.MaxSizeBytes, info.Schema = c.maxBytes, SchemaVersion
	err := c.view(func(tx *bolt.Tx) error {
		info.SizeBytes = tx.Size()
		meta := tx.Bucket(bucketMeta)
		if v, err := strconv.Atoi(string(meta.Get(keySchema))); err == nil {
			info.Schema = v
		}
		info.Evicted, info.SkippedOversized = getCounter(meta, keyEvicted), getCounter(meta, keyOversized)
		err := tx.Bucket(bucketByKind).ForEach(func(k, _ []byte) error {
			if len(k) >= 4 {
				kind := int(uint32(k[0])<<24 | uint32(k[1])<<16 | uint32(k[2])<<8 | uint32(k[3]))
				info.Kinds[strconv.Itoa(kind)]++
				info.Events++
				if kind == graph.KindDeletion {
					info.Deletions++
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		info.Addresses = tx.Bucket(bucketLatest).Stats().KeyN
		info.Projections = tx.Bucket(bucketProjections).Stats().KeyN
		return tx.Bucket(bucketRelays).ForEach(func(k, _ []byte) error {
			info.Relays = append(info.Relays, string(k))
			return nil
		})
	})
	if st, err := os.Stat(c.path); err == nil {
		info.SizeBytes = st.Size()
	}
	sort.Strings(info.Relays)
	return info, err
}
