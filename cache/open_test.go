package cache

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	bolt "go.etcd.io/bbolt"
)

func TestOpenCreatesPrivateHomeAndPersists(t *testing.T) {
	home := filepath.Join(t.TempDir(), "nested", "home")
	c, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(home)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("home mode %v, %v", st.Mode().Perm(), err)
	}
	evt := signed(t, aliceSK, 1, 1, "persist")
	if err := c.Put(evt); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c, err = Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, _ := c.Event(evt.ID); got == nil {
		t.Fatal("event lost across reopen")
	}
}

func assertCacheError(t *testing.T, err error, sentinel error, home string, wants ...string) {
	t.Helper()
	var ce *Error
	if !errors.As(err, &ce) || !errors.Is(err, sentinel) {
		t.Fatalf("got %v (%T), want a *cache.Error matching %v", err, err, sentinel)
	}
	for _, w := range append([]string{Path(home), "--home"}, wants...) {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("message %q does not mention %q", err, w)
		}
	}
}

// A corrupt file gives a clear message and a way out, never a panic.
func TestOpenCorruptFileNamesFileAndFix(t *testing.T) {
	random := make([]byte, 64<<10)
	_, _ = rand.Read(random)
	for name, content := range map[string][]byte{
		"short garbage": []byte("not a database"),
		"page of zeros": make([]byte, 8192),
		"random 64 KiB": random,
		"text file":     []byte(strings.Repeat("hello cache\n", 2000)),
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			if err := os.WriteFile(Path(home), content, 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := OpenWith(home, Options{Timeout: 200 * time.Millisecond})
			if err == nil {
				c.Close()
				t.Fatal("garbage opened as a cache")
			}
			assertCacheError(t, err, ErrCorrupt, home, "roster cache clear")
		})
	}
}

func TestUndecodableRecordIsReportedAsCorrupt(t *testing.T) {
	c, home := openTemp(t)
	evt := signed(t, aliceSK, 1, 1, "x")
	if err := c.Put(evt); err != nil {
		t.Fatal(err)
	}
	// Damage the stored JSON behind the cache's back.
	if err := c.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketEvents).Put([]byte(evt.ID), []byte("{not json")) }); err != nil {
		t.Fatal(err)
	}
	_, err := c.Query(nostr.Filter{Kinds: []int{1}})
	assertCacheError(t, err, ErrCorrupt, home, "roster cache clear")
}

func TestOpenForeignBoltFileIsNotARosterCache(t *testing.T) {
	home := t.TempDir()
	db, err := bolt.Open(Path(home), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("someone-else")); return err })
	db.Close()
	_, err = Open(home)
	assertCacheError(t, err, ErrCorrupt, home, "roster cache clear", "not a roster cache")
}

func TestOpenNewerSchemaNamesFileAndFix(t *testing.T) {
	c, home := openTemp(t)
	c.Close()
	db, err := bolt.Open(Path(home), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keySchema, []byte("2")) })
	db.Close()
	_, err = Open(home)
	assertCacheError(t, err, ErrNewerSchema, home, "roster cache clear", "schema version 2", "upgrade roster")
}

func TestOpenLockedFileReportsClearly(t *testing.T) {
	_, home := openTemp(t) // holds the lock until cleanup
	start := time.Now()
	_, err := OpenWith(home, Options{Timeout: 100 * time.Millisecond})
	assertCacheError(t, err, ErrLocked, home, "another roster process")
	if time.Since(start) > 5*time.Second {
		t.Fatalf("the lock wait ignored the timeout: %v", time.Since(start))
	}
}

func TestOpenWhenSomethingIsInTheWayIsNotCalledCorrupt(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(Path(home), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Open(home)
	assertCacheError(t, err, ErrUnreadable, home, "cannot be opened")
	if errors.Is(err, ErrCorrupt) || strings.Contains(err.Error(), "roster cache clear") {
		t.Fatalf("a directory in the way is not corruption: %v", err)
	}
}

func TestClearRemovesTheFileEvenWhenCorrupt(t *testing.T) {
	home := t.TempDir()
	if err := Clear(home); err != nil {
		t.Fatalf("clearing a missing cache: %v", err)
	}
	if err := os.WriteFile(Path(home), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Clear(home); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Path(home)); !os.IsNotExist(err) {
		t.Fatalf("file still there: %v", err)
	}
	c, err := Open(home)
	if err != nil {
		t.Fatalf("after clear: %v", err)
	}
	c.Close()
}

func TestInfoCountsWhatIsStored(t *testing.T) {
	c, home := openTemp(t)
	a1 := announcement(t, aliceSK, "r", 100, "")
	a2 := announcement(t, aliceSK, "r", 200, "")
	st := signed(t, aliceSK, 30618, 100, "", nostr.Tag{"d", "r"})
	del := signed(t, aliceSK, 5, 300, "", nostr.Tag{"e", a1.ID})
	if err := c.Put(a1, a2, st, del); err != nil {
		t.Fatal(err)
	}
	if err := c.PutRelayInfo("wss://relay.one", []byte(`{"name":"one"}`), time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	if err := c.PutProjection("ws:x", st); err != nil {
		t.Fatal(err)
	}
	info, err := c.Info()
	if err != nil {
		t.Fatal(err)
	}
	// a2 replaced a1: three events remain.
	if info.Path != Path(home) || info.Schema != SchemaVersion || info.Events != 3 || info.MaxSizeBytes != DefaultMaxBytes || info.Deletions != 1 ||
		info.Kinds["30617"] != 1 || info.Kinds["30618"] != 1 || info.Addresses != 2 || info.Projections != 1 ||
		len(info.Relays) != 1 || info.Relays[0] != "wss://relay.one" || info.SizeBytes <= 0 {
		t.Fatalf("info %+v", info)
	}
}

// damagedFreelist is a real cache whose pages after the two meta pages are
// overwritten: bbolt reads valid meta pages, locks the file, and then panics
// on the freelist, inside bolt.Open.
func damagedFreelist(t *testing.T) []byte {
	t.Helper()
	c, home := openTemp(t)
	for i := 0; i < 50; i++ {
		if err := c.Put(signed(t, aliceSK, 1, int64(i), "damaged")); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	raw, err := os.ReadFile(Path(home))
	if err != nil {
		t.Fatal(err)
	}
	for i := 2 * 4096; i < len(raw); i++ {
		raw[i] = 0xAB
	}
	return raw
}

// A failed Open releases the file: opening the same damaged cache again in
// the same process reports it corrupt again at once, with the default lock
// timeout, instead of waiting for a lock the first attempt left behind and
// calling it "locked by another roster process".
func TestFailedOpenReleasesTheFileLock(t *testing.T) {
	for name, content := range map[string][]byte{
		"garbage":          []byte(strings.Repeat("not a database ", 1000)),
		"damaged freelist": damagedFreelist(t),
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			if err := os.WriteFile(Path(home), content, 0o600); err != nil {
				t.Fatal(err)
			}
			for attempt := 1; attempt <= 3; attempt++ {
				start := time.Now()
				c, err := Open(home) // DefaultOpenTimeout: 2 s
				if err == nil {
					c.Close()
					t.Fatal("a damaged file opened as a cache")
				}
				assertCacheError(t, err, ErrCorrupt, home, "roster cache clear")
				if d := time.Since(start); d > DefaultOpenTimeout/4 {
					t.Fatalf("attempt %d took %v: it waited for a lock an earlier failed open kept", attempt, d)
				}
			}
		})
	}
}
