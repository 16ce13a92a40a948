package groups

import (
	"encoding/json"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Rule (NIP-51 kind 10009 is replaceable): adding or removing one group
// entry keeps every other tag and the (possibly encrypted) content byte for
// byte, and dates the new version after the old one.
func TestGroupsListUpdateKeepsEveryOtherEntry(t *testing.T) {
	prev := signed(t, aliceSK, KindGroupsList, 500, nostr.Tags{
		{"group", "other", "wss://a.example", "Other ✓", "extra"},
		{"r", "wss://a.example"},
		{"unknown", "x"},
	})
	prev.Content = "nip44-private-items"
	add, changed := WithEntry(prev, ListEntry{ID: gid, Relay: "wss://g.example", Name: "Home"}, 400)
	if !changed || add.CreatedAt != 501 || add.Content != prev.Content || len(add.Tags) != 4 {
		t.Fatalf("%+v", add)
	}
	before, _ := json.Marshal(prev.Tags)
	kept, _ := json.Marshal(add.Tags[:3])
	if string(before) != string(kept) {
		t.Fatalf("other entries changed:\n%s\n%s", before, kept)
	}
	if got := add.Tags[3]; len(got) != 4 || got[1] != gid || got[2] != "wss://g.example" || got[3] != "Home" {
		t.Fatalf("new entry %v", got)
	}
	if _, changed := WithEntry(add, ListEntry{ID: gid, Relay: "wss://g.example/"}, 900); changed {
		t.Fatal("a second entry for the same group on the same relay")
	}
	if _, changed := WithEntry(add, ListEntry{ID: gid, Relay: "wss://fork.example"}, 900); !changed {
		t.Fatal("the same id on another relay is another group")
	}
	rm, changed := WithoutEntry(add, gid, "wss://g.example", 900)
	if !changed || rm.CreatedAt != 900 {
		t.Fatalf("%+v", rm)
	}
	after, _ := json.Marshal(rm.Tags)
	if string(after) != string(before) || rm.Content != prev.Content {
		t.Fatalf("remove changed the rest:\n%s\n%s", before, after)
	}
	if _, changed := WithoutEntry(rm, gid, "", 901); changed {
		t.Fatal("removed an entry that is not there")
	}
	if e := EntriesOf(prev); len(e) != 1 || e[0].Name != "Other ✓" {
		t.Fatalf("%+v", e)
	}
	if fresh, changed := WithEntry(nil, ListEntry{ID: gid, Relay: "wss://g.example"}, 7); !changed || fresh.CreatedAt != 7 || len(fresh.Tags) != 1 {
		t.Fatalf("%+v", fresh)
	}
}

// Following a moved group: the entry for the old relay is dropped and the
// new one added in one version; the rest is kept.
func TestGroupsListFollowsAMovedGroup(t *testing.T) {
	prev := signed(t, aliceSK, KindGroupsList, 500, nostr.Tags{{"group", gid, "wss://old.example"}, {"group", "other", "wss://old.example"}})
	next, changed := WithEntryFrom(prev, ListEntry{ID: gid, Relay: "wss://new.example"}, "wss://old.example/", 900)
	if !changed || len(next.Tags) != 2 || next.Tags[0][1] != "other" || next.Tags[1][2] != "wss://new.example" || next.CreatedAt != 900 {
		t.Fatalf("%v", next.Tags)
	}
	if _, changed := WithEntryFrom(next, ListEntry{ID: gid, Relay: "wss://new.example"}, "wss://old.example", 901); changed {
		t.Fatal("nothing left to change")
	}
}
