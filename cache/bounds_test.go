package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	bolt "go.etcd.io/bbolt"
)

// sized is a signed event whose JSON is size bytes (size must leave room
// for the event's fixed fields, about 400 bytes): each "x" of content adds
// one byte.
func sized(t testing.TB, sk string, kind int, at int64, size int, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	evt := signed(t, sk, kind, at, "", tags...)
	raw, err := evt.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return signed(t, sk, kind, at, strings.Repeat("x", size-len(raw)), tags...)
}

func fileSize(t testing.TB, home string) int64 {
	t.Helper()
	st, err := os.Stat(Path(home))
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

func info(t testing.TB, c *Cache) Info {
	t.Helper()
	i, err := c.Info()
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// secretKey is the n-th test key (1 and 2 are Alice and Bob).
func secretKey(n int) string { return fmt.Sprintf("%064x", n+1000) }

// The audit's first flood: 100 announcements of about 1 MB each. None is
// stored (each is over MaxEventBytes); the read goes on and the skips are
// counted for `roster cache info`.
func TestEventsOverTheSizeLimitAreSkippedAndCounted(t *testing.T) {
	t.Parallel() // large events: let their disk waits overlap
	c, home := openTemp(t)
	var flood []*nostr.Event
	for i := 0; i < 100; i++ {
		flood = append(flood, sized(t, aliceSK, 30617, 1000, 1_000_000, nostr.Tag{"d", fmt.Sprintf("flood-%d", i)}))
	}
	res, err := c.PutReport(flood...)
	if err != nil || res.Oversized != 100 || res.Stored != 0 || len(res.Rejected) != 0 {
		t.Fatalf("%+v, %v; want 100 oversized, none stored, no error", res, err)
	}
	// The trusted path skips them too.
	var proofs = proof(t, flood[0])
	if res, err := c.PutVerifiedReport(proofs); err != nil || res.Oversized != 1 || res.Stored != 0 {
		t.Fatalf("verified: %+v, %v", res, err)
	}
	if got := query(t, c, nostr.Filter{Kinds: []int{30617}}); len(got) != 0 {
		t.Fatalf("stored %d oversized announcements", len(got))
	}
	i := info(t, c)
	if i.SkippedOversized != 101 || i.Events != 0 || i.MaxEventBytes != MaxEventBytes {
		t.Fatalf("info %+v", i)
	}
	if size := fileSize(t, home); size > 1<<20 {
		t.Fatalf("file grew to %d bytes storing nothing", size)
	}
	// The limit is inclusive.
	atLimit := sized(t, aliceSK, 1, 1, MaxEventBytes)
	over := sized(t, aliceSK, 1, 2, MaxEventBytes+1)
	for e, want := range map[*nostr.Event]int{atLimit: MaxEventBytes, over: MaxEventBytes + 1} {
		if raw, _ := e.MarshalJSON(); len(raw) != want {
			t.Fatalf("made a %d-byte event, want %d", len(raw), want)
		}
	}
	if res, err := c.PutReport(atLimit, over); err != nil || res.Stored != 1 || res.Oversized != 1 {
		t.Fatalf("at the limit: %+v, %v", res, err)
	}
	if got, _ := c.Event(atLimit.ID); got == nil {
		t.Fatal("an event of exactly MaxEventBytes was not stored")
	}
}

// The audit's second flood: addressable events of about 200 KiB, re-signed
// over and over with a newer created_at. Only the latest per address stays,
// and the file stays under the default cap.
func TestReSignedFloodKeepsOnlyTheLatestPerAddressUnderTheDefaultCap(t *testing.T) {
	t.Parallel() // large events: let their disk waits overlap
	c, home := openTemp(t)
	const addresses, rounds = 40, 4
	var last []*nostr.Event
	for round := 1; round <= rounds; round++ {
		last = last[:0]
		for a := 0; a < addresses; a++ {
			last = append(last, sized(t, secretKey(a%4), 30617, int64(1000+round), 200<<10, nostr.Tag{"d", fmt.Sprintf("repo-%d", a)}))
		}
		res, err := c.PutReport(last...)
		if err != nil || res.Stored != addresses || (round > 1 && res.Replaced != addresses) {
			t.Fatalf("round %d: %+v, %v", round, res, err)
		}
		if size := fileSize(t, home); size > DefaultMaxBytes {
			t.Fatalf("round %d: file is %d bytes, over the %d cap", round, size, DefaultMaxBytes)
		}
	}
	i := info(t, c)
	if i.Events != addresses || i.Addresses != addresses || i.Evicted != 0 {
		t.Fatalf("info %+v; want %d events, one per address, nothing evicted", i, addresses)
	}
	for _, want := range last {
		if got, _ := c.Event(want.ID); got == nil {
			t.Fatalf("latest %s missing", want.ID)
		}
	}
	// 8 MB of live events: bbolt reuses the pages the replaced versions
	// freed, so the file does not grow with every round.
	live := int64(addresses * 200 << 10)
	if size := fileSize(t, home); size > 3*live {
		t.Fatalf("file is %d bytes for %d bytes of events", size, live)
	}
	t.Logf("%d rounds of %d × 200 KiB: file %d bytes", rounds, addresses, fileSize(t, home))
}

// A flood bigger than the default cap, at distinct addresses: the file
// stays under the cap, the oldest are evicted and counted.
func TestFloodOverTheDefaultCapStaysUnderIt(t *testing.T) {
	t.Parallel() // large events: let their disk waits overlap
	c, home := openTemp(t)
	const addresses, perPut = 330, 30 // 66 MB of 200 KiB events
	var all []*nostr.Event
	for a := 0; a < addresses; a += perPut {
		var batch []*nostr.Event
		for b := a; b < a+perPut; b++ {
			batch = append(batch, sized(t, secretKey(b%7), 30617, 1000, 200<<10, nostr.Tag{"d", fmt.Sprintf("repo-%d", b)}))
		}
		all = append(all, batch...)
		if err := c.Put(batch...); err != nil {
			t.Fatal(err)
		}
		if size := fileSize(t, home); size > DefaultMaxBytes {
			t.Fatalf("after %d events the file is %d bytes, over the %d cap", len(all), size, DefaultMaxBytes)
		}
	}
	i := info(t, c)
	if i.Evicted == 0 || i.Events+int(i.Evicted) != addresses || i.Addresses != i.Events {
		t.Fatalf("info %+v", i)
	}
	// The newest survive.
	if got, _ := c.Event(all[len(all)-1].ID); got == nil {
		t.Fatal("the last event stored was evicted")
	}
	t.Logf("%d × 200 KiB: file %d bytes, %d events kept, %d evicted", addresses, fileSize(t, home), i.Events, i.Evicted)
}

// Past the cap, the least recently read events are evicted first: an event
// read all along survives a flood bigger than the cap, one never read does
// not, and the file never passes the cap. Reads are remembered across
// sessions.
func TestFloodOverTheCapEvictsTheLeastRecentlyRead(t *testing.T) {
	t.Parallel() // large events: let their disk waits overlap
	home := t.TempDir()
	const maxBytes = 4 << 20
	open := func() *Cache {
		c, err := OpenWith(home, Options{MaxBytes: maxBytes})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := open()
	stale := signed(t, bobSK, 1, 1, "never read again")
	kept := signed(t, aliceSK, 1, 2, "read all along")
	if err := c.Put(stale, kept); err != nil {
		t.Fatal(err)
	}
	const addresses, rounds, perPut = 30, 4, 5 // 6 MB of live events per round
	var last []*nostr.Event
	for round := 1; round <= rounds; round++ {
		last = last[:0]
		for a := 0; a < addresses; a += perPut {
			var batch []*nostr.Event
			for b := a; b < a+perPut; b++ {
				batch = append(batch, sized(t, secretKey(b%3), 30617, int64(1000+round), 200<<10, nostr.Tag{"d", fmt.Sprintf("repo-%d", b)}))
			}
			last = append(last, batch...)
			if err := c.Put(batch...); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if size := fileSize(t, home); size > maxBytes {
				t.Fatalf("round %d: file is %d bytes, over the %d cap", round, size, maxBytes)
			}
			if got, err := c.Event(kept.ID); err != nil || got == nil {
				t.Fatalf("round %d: the event read all along was evicted (%v)", round, err)
			}
		}
		c.Close() // the next session must remember what this one read
		c = open()
	}
	defer c.Close()
	if got, _ := c.Event(stale.ID); got != nil {
		t.Fatal("the event never read survived a flood over the cap")
	}
	i := info(t, c)
	if i.Evicted == 0 || i.MaxSizeBytes != maxBytes {
		t.Fatalf("info %+v; want evictions counted", i)
	}
	// Only the latest per address: every flood event left is from the last
	// round, and there is one event per address.
	latest := map[string]bool{}
	for _, e := range last {
		latest[e.ID] = true
	}
	evts, err := c.Query(nostr.Filter{Kinds: []int{30617}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evts {
		if !latest[e.ID] {
			t.Fatalf("%s (created_at %d) is not its address's latest", e.ID, e.CreatedAt)
		}
	}
	if i.Events != i.Addresses+1 || len(evts) == 0 {
		t.Fatalf("info %+v, %d flood events: want one event per address, plus the note", i, len(evts))
	}
}

// A file over the cap (an older roster's, or one written under a bigger
// cap) is evicted and compacted on open: bbolt never shrinks a file by
// itself, so only the compacted copy brings it under the cap on disk.
func TestFileOverTheCapIsShrunkOnOpen(t *testing.T) {
	t.Parallel() // large events: let their disk waits overlap
	home := t.TempDir()
	c, err := OpenWith(home, Options{MaxBytes: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var flood []*nostr.Event
	for a := 0; a < 60; a++ {
		flood = append(flood, sized(t, secretKey(a%3), 30617, 1000, 200<<10, nostr.Tag{"d", fmt.Sprintf("repo-%d", a)}))
	}
	if err := c.Put(flood...); err != nil {
		t.Fatal(err)
	}
	// Read a few: they are the ones to keep.
	for _, e := range flood[:3] {
		if got, _ := c.Event(e.ID); got == nil {
			t.Fatal("not stored")
		}
	}
	c.Close()
	const small = 4 << 20
	if size := fileSize(t, home); size <= small {
		t.Fatalf("setup: file is only %d bytes", size)
	}
	c, err = OpenWith(home, Options{MaxBytes: small})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if size := fileSize(t, home); size > small {
		t.Fatalf("after opening under a %d cap the file is %d bytes", small, size)
	}
	if _, err := os.Stat(Path(home) + ".compact"); !os.IsNotExist(err) {
		t.Fatalf("compaction left its temporary file: %v", err)
	}
	for _, e := range flood[:3] {
		if got, _ := c.Event(e.ID); got == nil {
			t.Fatal("a recently read event was evicted before unread ones")
		}
	}
	i := info(t, c)
	if i.Evicted == 0 || i.Events == 0 || i.Events+int(i.Evicted) != len(flood) || i.Addresses != i.Events {
		t.Fatalf("info %+v", i)
	}
	// The compacted file is the cache from now on.
	note := signed(t, aliceSK, 1, 5, "after compaction")
	if err := c.Put(note); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, err = OpenWith(home, Options{MaxBytes: small})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, _ := c.Event(note.ID); got == nil {
		t.Fatal("a write after compaction was lost")
	}
}

// fdsOpenOn counts this process's descriptors open on path (Linux).
func fdsOpenOn(t *testing.T, path string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("counting open descriptors needs /proc/self/fd (Linux, where roster is tested): %v", err)
	}
	n := 0
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && target == path {
			n++
		}
	}
	return n
}

// Compaction renames a new file over the cache. A roster waiting for the
// old file's lock meanwhile must end up on the new file, not write into the
// old one nobody will read again.
func TestOpenWaitingDuringCompactionLandsOnTheNewFile(t *testing.T) {
	c1, home := openTemp(t)
	if err := c1.Put(signed(t, aliceSK, 1, 1, "before")); err != nil {
		t.Fatal(err)
	}
	path, _ := filepath.EvalSymlinks(Path(home))
	before := fdsOpenOn(t, path)
	type opened struct {
		c   *Cache
		err error
	}
	second := make(chan opened, 1)
	go func() {
		c, err := OpenWith(home, Options{Timeout: 20 * time.Second})
		second <- opened{c, err}
	}()
	// Wait until the second Open has the old file open and polls its lock.
	deadline := time.Now().Add(10 * time.Second)
	for fdsOpenOn(t, path) <= before {
		if time.Now().After(deadline) {
			t.Fatal("the second Open never opened the file")
		}
		runtime.Gosched()
	}
	if err := c1.compact(); err != nil {
		t.Fatal(err)
	}
	c1.Close()
	got := <-second
	if got.err != nil {
		t.Fatal(got.err)
	}
	after := signed(t, aliceSK, 1, 2, "after")
	if err := got.c.Put(after); err != nil {
		t.Fatal(err)
	}
	got.c.Close()
	c3, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	if e, _ := c3.Event(after.ID); e == nil {
		t.Fatal("the write of the roster that waited went into the replaced file")
	}
}

// A cache from before read tracking may hold superseded versions: opening
// it drops them, keeping each address's latest.
func TestOpeningAnOlderFileDropsSupersededVersions(t *testing.T) {
	c, home := openTemp(t)
	newer := announcement(t, aliceSK, "r", 200, "")
	older := announcement(t, aliceSK, "r", 100, "")
	note := signed(t, aliceSK, 1, 100, "regular")
	if err := c.Put(newer, note); err != nil {
		t.Fatal(err)
	}
	// What an older roster left: every version, and no access bucket.
	raw, _ := older.MarshalJSON()
	err := c.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketEvents).Put([]byte(older.ID), raw); err != nil {
			return err
		}
		if err := tx.Bucket(bucketByKind).Put(kindKey(older.Kind, older.ID), nil); err != nil {
			return err
		}
		return tx.DeleteBucket(bucketAccess)
	})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, err = Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if e, _ := c.Event(older.ID); e != nil {
		t.Fatal("the superseded version survived the upgrade")
	}
	for _, id := range []string{newer.ID, note.ID} {
		if e, _ := c.Event(id); e == nil {
			t.Fatalf("%s lost in the upgrade", id)
		}
	}
	if i := info(t, c); i.Events != 2 {
		t.Fatalf("info %+v", i)
	}
}

// Eviction and compaction under concurrent writers and readers (-race).
func TestEvictionIsSafeForConcurrentUse(t *testing.T) {
	home := t.TempDir()
	const maxBytes = 2 << 20
	c, err := OpenWith(home, Options{MaxBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < 2; w++ {
		var evts []*nostr.Event
		for i := 0; i < 15; i++ {
			evts = append(evts, sized(t, secretKey(w), 30617, int64(1000+i), 100<<10, nostr.Tag{"d", fmt.Sprintf("w%d-%d", w, i%5)}))
		}
		wg.Add(2)
		go func() {
			defer wg.Done()
			for _, e := range evts {
				if err := c.Put(e); err != nil {
					errs <- err
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if _, err := c.Query(nostr.Filter{Kinds: []int{30617}}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 3; i++ {
			if err := c.compact(); err != nil {
				errs <- err
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if size := fileSize(t, home); size > maxBytes {
		t.Fatalf("file is %d bytes, over the %d cap", size, maxBytes)
	}
}
