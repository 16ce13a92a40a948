package cache

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/relaypool/verified"
)

func proof(t testing.TB, evt *nostr.Event) verified.Event {
	t.Helper()
	v, ok := verified.Check(evt)
	if !ok {
		t.Fatal("test event does not verify")
	}
	return v
}

// Rule (the cache stores only verified events): PutVerified skips the signature
// check because a verified.Event can only come from a check, and it still
// refuses an event changed after it was checked.
func TestPutVerifiedStoresOnlyEventsStillVouchedFor(t *testing.T) {
	c, _ := openTemp(t)
	good := announcement(t, aliceSK, "repo", 100, "")
	changed := announcement(t, bobSK, "repo", 100, "")
	vChanged := proof(t, changed)
	changed.Content = "edited after the check"
	ephemeral := signed(t, aliceSK, 22242, 100, "")

	res, err := c.PutVerifiedReport(proof(t, good), vChanged, proof(t, ephemeral), verified.Event{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stored != 1 || len(res.Rejected) != 3 {
		t.Fatalf("stored %d, rejected %v; want 1 stored and 3 rejected", res.Stored, res.Rejected)
	}
	if got := query(t, c, nostr.Filter{Kinds: []int{30617}}); len(got) != 1 || got[0] != good.ID {
		t.Fatalf("cached %v, want only %s", got, good.ID)
	}
	again, err := c.PutVerifiedReport(proof(t, good))
	if err != nil || again.Known != 1 || again.Stored != 0 {
		t.Fatalf("second put %+v, %v; want it known", again, err)
	}
}

// The trusted path keeps the NIP-01 latest-per-address rule of Put.
func TestPutVerifiedKeepsLatestAddressableLowestIDOnTies(t *testing.T) {
	c, _ := openTemp(t)
	a := announcement(t, aliceSK, "repo", 100, "one")
	b := announcement(t, aliceSK, "repo", 100, "two")
	older := announcement(t, aliceSK, "repo", 50, "old")
	if err := c.PutVerified(proof(t, a), proof(t, older), proof(t, b)); err != nil {
		t.Fatal(err)
	}
	want := a.ID
	if b.ID < want {
		want = b.ID
	}
	if got := query(t, c, nostr.Filter{Kinds: []int{30617}, Tags: nostr.TagMap{"d": {"repo"}}}); len(got) != 1 || got[0] != want {
		t.Fatalf("latest %v, want the lowest id %s", got, want)
	}
}
