package cache

import (
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// The cache keeps only the latest version of an address, except that the
// version a republish with fewer role records replaced is kept as the last
// complete one, until a version with as many records replaces it again.
func TestAReplacementWithFewerRoleRecordsKeepsTheLastCompleteVersion(t *testing.T) {
	c, _ := openTemp(t)
	complete := signed(t, aliceSK, 30617, 100, "", nostr.Tag{"d", "repo"}, nostr.Tag{"M", alicePK}, nostr.Tag{"m", bobPK, "50"},
		nostr.Tag{"maintainers", alicePK, bobPK})
	damaged := signed(t, aliceSK, 30617, 200, "", nostr.Tag{"d", "repo"}, nostr.Tag{"maintainers", alicePK, bobPK})
	other := signed(t, aliceSK, 30617, 300, "", nostr.Tag{"d", "elsewhere"}, nostr.Tag{"M", alicePK})
	if err := c.Put(complete, other); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.LastComplete("repo"); len(got) != 0 {
		t.Fatalf("nothing replaced yet: %v", ids(got))
	}
	if err := c.Put(damaged); err != nil {
		t.Fatal(err)
	}
	if got := query(t, c, nostr.Filter{Kinds: []int{30617}, Tags: nostr.TagMap{"d": {"repo"}}}); len(got) != 1 || got[0] != damaged.ID {
		t.Fatalf("the latest is the damaged one: %v", got)
	}
	got, err := c.LastComplete("repo")
	if err != nil || len(got) != 1 || got[0].ID != complete.ID {
		t.Fatalf("last complete: %v %v", ids(got), err)
	}
	// A second damaged republish keeps the complete one.
	again := signed(t, aliceSK, 30617, 250, "", nostr.Tag{"d", "repo"}, nostr.Tag{"maintainers", alicePK, bobPK}, nostr.Tag{"web", "x"})
	if err := c.Put(again); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.LastComplete("repo"); len(got) != 1 || got[0].ID != complete.ID {
		t.Fatalf("still the complete one: %v", ids(got))
	}
	repaired := signed(t, aliceSK, 30617, 400, "", nostr.Tag{"d", "repo"}, nostr.Tag{"M", alicePK}, nostr.Tag{"m", bobPK, "50"},
		nostr.Tag{"maintainers", alicePK, bobPK})
	if err := c.Put(repaired); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.LastComplete("repo"); len(got) != 0 {
		t.Fatalf("a repaired version drops it: %v", ids(got))
	}
}

// Bounded: at most MaxCompleteVersions addresses, the least recently stored
// dropped first.
func TestLastCompleteVersionsAreBounded(t *testing.T) {
	c, _ := openTemp(t)
	var first *nostr.Event
	for i := 0; i < MaxCompleteVersions+3; i++ {
		d := fmt.Sprintf("r%d", i)
		full := signed(t, aliceSK, 30617, 100, "", nostr.Tag{"d", d}, nostr.Tag{"M", alicePK})
		if i == 0 {
			first = full
		}
		if err := c.Put(full, signed(t, aliceSK, 30617, 200, "", nostr.Tag{"d", d})); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for i := 0; i < MaxCompleteVersions+3; i++ {
		got, err := c.LastComplete(fmt.Sprintf("r%d", i))
		if err != nil {
			t.Fatal(err)
		}
		n += len(got)
		if i == 0 && len(got) != 0 {
			t.Fatalf("the oldest is dropped: %v (first %s)", ids(got), first.ID)
		}
	}
	if n != MaxCompleteVersions {
		t.Fatalf("kept %d, want %d", n, MaxCompleteVersions)
	}
}
