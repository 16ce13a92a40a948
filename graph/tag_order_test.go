package graph

import (
	"encoding/json"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// ngit writes d, r euc, name, description, clone, web, relays, maintainers,
// alt, t..., u..., blossoms, then the tags it does not know (M/m/o among
// them) verbatim and in their order; an `r` holding a URL is such a tag.
func TestAnnouncementTagsFollowNgitOrder(t *testing.T) {
	euc := "1111111111111111111111111111111111111111"
	in := nostr.Tags{
		{"m", "bob", "2000"}, {"t", "go"}, {"x-unknown", "1"}, {"alt", "git repository: W"}, {"blossoms", "https://b.example"},
		{"u", "nostr://up"}, {"maintainers", "bob", "alice"}, {"r", "https://git.example/w"}, {"relays", "wss://r.example"},
		{"M", "alice", "2000"}, {"web"}, {"t", "nostr"}, {"clone", "https://git.example/w.git"}, {"description", "D"},
		{"name", "W"}, {"r", euc, "euc"}, {"d", "w"},
	}
	b, _ := json.Marshal(InNgitTagOrder(in))
	want := `[["d","w"],["r","` + euc + `","euc"],["name","W"],["description","D"],["clone","https://git.example/w.git"],["web"],` +
		`["relays","wss://r.example"],["maintainers","bob","alice"],["alt","git repository: W"],["t","go"],["t","nostr"],` +
		`["u","nostr://up"],["blossoms","https://b.example"],["m","bob","2000"],["x-unknown","1"],["r","https://git.example/w"],["M","alice","2000"]]`
	if string(b) != want {
		t.Fatalf("order\n got: %s\nwant: %s", b, want)
	}
	if in[0][0] != "m" {
		t.Fatal("InNgitTagOrder reordered its argument")
	}
}
