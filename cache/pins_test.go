package cache

import (
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Rule (the cache never evicts the repository this home used most
// recently in favour of another repository's large events): Alice's
// repository, pinned and then never read again, survives two rounds of
// 200 KiB announcements of other repositories, each read after it, over a
// 4 MiB cap, across sessions; an unpinned event stored beside it is
// evicted, and the file stays under the cap.
func TestPinnedRepositorySurvivesAFloodOfOtherRepositoriesEvents(t *testing.T) {
	t.Parallel()
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
	mine := []*nostr.Event{announcement(t, aliceSK, "my-repo", 10, "alice's"), announcement(t, bobSK, "my-repo", 11, "bob's"),
		signed(t, aliceSK, 30618, 12, "", nostr.Tag{"d", "my-repo"})}
	loose := signed(t, bobSK, 1, 1, "never read again, not pinned")
	if err := c.Put(append(mine, loose)...); err != nil {
		t.Fatal(err)
	}
	c.Pin("30617:alice:my-repo", ids(mine)...)
	c.Close()
	c = open()
	for round := 1; round <= 2; round++ {
		for a := 0; a < 30; a += 5 {
			var batch []*nostr.Event
			for b := a; b < a+5; b++ {
				batch = append(batch, sized(t, secretKey(b%3), 30617, int64(1000+round), 200<<10, nostr.Tag{"d", fmt.Sprintf("other-%d", b)}))
			}
			if err := c.Put(batch...); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			_ = query(t, c, nostr.Filter{IDs: ids(batch)}) // read, so more recent than mine
			if size := fileSize(t, home); size > maxBytes {
				t.Fatalf("round %d: file is %d bytes, over the %d cap", round, size, maxBytes)
			}
		}
		c.Close()
		c = open()
	}
	defer c.Close()
	for _, e := range mine {
		if got, err := c.Event(e.ID); err != nil || got == nil {
			t.Fatalf("pinned event %d (kind %d) was evicted (%v)", e.CreatedAt, e.Kind, err)
		}
	}
	if got, _ := c.Event(loose.ID); got != nil {
		t.Fatal("an unpinned event never read survived the flood: nothing was evicted")
	}
	if pins, err := c.PinnedCoordinates(); err != nil || len(pins) != 1 || pins[0] != "30617:alice:my-repo" {
		t.Fatalf("pins %v (%v)", pins, err)
	}
}

// Rule (pins cannot fill the file either): only the MaxPins most recent
// pins count, and a pin of events larger than an eighth of the cap is not
// kept, so a flood that pins itself is still evicted.
func TestPinsAreBoundedInNumberAndSize(t *testing.T) {
	t.Parallel()
	c, _ := openTemp(t)
	for i := range MaxPins + 4 {
		c.Pin(fmt.Sprintf("30617:x:repo-%d", i), fmt.Sprintf("%064x", i))
	}
	if err := c.Put(signed(t, aliceSK, 1, 1, "a write stores the pins")); err != nil {
		t.Fatal(err)
	}
	pins, err := c.PinnedCoordinates()
	if err != nil || len(pins) != MaxPins || pins[0] != fmt.Sprintf("30617:x:repo-%d", MaxPins+3) {
		t.Fatalf("%d pins, first %v (%v)", len(pins), pins, err)
	}
	size := map[string]int64{"a": 60, "b": 60, "c": 10}
	all := map[string]pin{"big": {tick: 3, ids: []string{"a", "b"}}, "small": {tick: 2, ids: []string{"c"}}}
	if keep := pinned(all, size, 100); keep["a"] || keep["b"] || !keep["c"] {
		t.Fatalf("kept %v: the 120-byte pin does not fit a 100-byte budget, the 10-byte one does", keep)
	}
}
