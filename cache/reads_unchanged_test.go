package cache

import (
	"bytes"
	"os"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	bolt "go.etcd.io/bbolt"
)

// session opens the cache in home, runs fn, closes it, and returns the
// file's bytes after Close.
func session(t *testing.T, home string, fn func(c *Cache)) []byte {
	t.Helper()
	c, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	fn(c)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(Path(home))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// accessTicks is every event's stored access tick.
func accessTicks(t *testing.T, home string) map[string]uint64 {
	t.Helper()
	db, err := bolt.Open(Path(home), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]uint64{}
	err = db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketAccess).ForEach(func(k, v []byte) error {
			out[string(k)] = readTick(v)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// twoStored is a home whose cache holds two notes, a and b, written in a
// session of their own.
func twoStored(t *testing.T) (home string, a, b *nostr.Event) {
	t.Helper()
	home = t.TempDir()
	a = signed(t, aliceSK, 1, 1, "a")
	b = signed(t, bobSK, 1, 2, "b")
	session(t, home, func(c *Cache) {
		if err := c.Put(a, b); err != nil {
			t.Fatal(err)
		}
	})
	return home, a, b
}

func readAll(t *testing.T, c *Cache, evts ...*nostr.Event) {
	t.Helper()
	for _, e := range evts {
		if got, err := c.Event(e.ID); err != nil || got == nil {
			t.Fatalf("event %s: %v, %v", e.ID, got, err)
		}
	}
}

// Writing the same reads and pins again, in the same order, would change
// their ticks but not the eviction order: the second and later sessions
// write nothing (no transaction, no fsync: the file is byte for byte the
// same).
func TestARepeatedReadInTheSameOrderWritesNothing(t *testing.T) {
	home, a, b := twoStored(t)
	read := func(c *Cache) {
		readAll(t, c, a, b)
		c.Pin("30617:"+alicePK+":repo", a.ID, b.ID)
	}
	first := session(t, home, read)
	for i := 0; i < 3; i++ {
		if again := session(t, home, read); !bytes.Equal(first, again) {
			t.Fatalf("session %d wrote the file again though it read what the last one read, in the same order", i+2)
		}
	}
}

// Reading other events, the same events in another order, or pinning
// other ids changes the eviction order, so it is written.
func TestAReadThatChangesTheOrderIsWritten(t *testing.T) {
	home, a, b := twoStored(t)
	base := session(t, home, func(c *Cache) { readAll(t, c, a, b) })
	for _, tc := range []struct {
		name string
		read func(c *Cache)
	}{
		{"another order", func(c *Cache) { readAll(t, c, b, a) }},
		{"fewer events", func(c *Cache) { readAll(t, c, b) }},
		{"a pin as well", func(c *Cache) { readAll(t, c, b); c.Pin("30617:"+alicePK+":repo", a.ID) }},
		{"the pin with other ids", func(c *Cache) { readAll(t, c, b); c.Pin("30617:"+alicePK+":repo", b.ID) }},
	} {
		got := session(t, home, tc.read)
		if bytes.Equal(base, got) {
			t.Fatalf("%s: the file is unchanged; the new order was not recorded", tc.name)
		}
		base = got
	}
	ticks := accessTicks(t, home)
	if ticks[b.ID] <= ticks[a.ID] {
		t.Fatalf("b was read last, but its tick %d is not after a's %d", ticks[b.ID], ticks[a.ID])
	}
}

// A write between two identical reads stamps what it wrote as newer than
// the reads; the second read must be recorded again, or the events it read
// would look older than the one written in between and be evicted first.
func TestAReadAfterAWriteIsWrittenAgain(t *testing.T) {
	home, a, _ := twoStored(t)
	session(t, home, func(c *Cache) { readAll(t, c, a) })
	session(t, home, func(c *Cache) {
		if err := c.Put(signed(t, aliceSK, 1, 3, "written in between")); err != nil {
			t.Fatal(err)
		}
	})
	written := accessTicks(t, home)
	session(t, home, func(c *Cache) { readAll(t, c, a) })
	ticks := accessTicks(t, home)
	for id, tick := range written {
		if id != a.ID && ticks[a.ID] <= tick {
			t.Fatalf("a was read after %s was written, but its tick %d is not after %d", id, ticks[a.ID], tick)
		}
	}
}
