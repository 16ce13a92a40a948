package graph

import (
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Rule (latest announcement per author by NIP-01: newest created_at, then
// lowest id): the id only breaks ties. An older announcement whose id sorts lower
// must still lose to a newer one, both in Latest and in Resolve.
func TestLatestPrefersNewestCreatedAtOverLowerID(t *testing.T) {
	newer := unsigned(pk("alice"), 200, nostr.Tags{{"M", pk("alice")}, {"m", pk("bob")}})
	var older *nostr.Event
	for i := 0; older == nil || older.ID > newer.ID; i++ {
		older = unsigned(pk("alice"), 100, nostr.Tags{{"M", pk("carol")}, {"name", fmt.Sprint(i)}})
	}
	for _, order := range [][]*nostr.Event{{older, newer}, {newer, older}} {
		if got := Latest(order)[pk("alice")]; got.ID != newer.ID {
			t.Fatalf("latest is the older event %s (lower id), want the newer %s", got.ID, newer.ID)
		}
		if r := Resolve(order, sel("alice"), 10_000, Options{}); r.Lead != pk("alice") || statusOf(r, "bob") != StatusInvited {
			t.Fatalf("Resolve used the older announcement: lead %s maintainers %v", r.Lead, r.Maintainers)
		}
	}
}
