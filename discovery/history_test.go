package discovery

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

func historyKey(b string) (sk, pk string) {
	sk = strings.Repeat(b, 32)
	pk, _ = nostr.GetPublicKey(sk)
	return sk, pk
}

func historyAnn(t *testing.T, sk string, at int64, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	e := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: nostr.Timestamp(at), Tags: append(nostr.Tags{{"d", "repo"}}, tags...)}
	if err := e.Sign(sk); err != nil {
		t.Fatal(err)
	}
	return e
}

// "(kept in the cache, or asked for with the author's history — bounded)":
// only an announcement without role records that still lists others, in a
// repository whose role records name its author, with no earlier version
// known, is asked about; one filter each, older than the latest version,
// at most MaxHistoryVersions events.
func TestTheAuthorsHistoryIsAskedOnlyForSuspects(t *testing.T) {
	aliceSK, alice := historyKey("a1")
	bobSK, bob := historyKey("b2")
	_, carol := historyKey("c3")
	complete := historyAnn(t, aliceSK, 100, nostr.Tag{"M", alice}, nostr.Tag{"m", bob, "50"}, nostr.Tag{"maintainers", alice, bob})
	damaged := historyAnn(t, aliceSK, 200, nostr.Tag{"maintainers", alice, bob})
	bobs := historyAnn(t, bobSK, 150, nostr.Tag{"M", alice, "50"}, nostr.Tag{"m", bob, "50"}, nostr.Tag{"maintainers", alice, bob})
	events := []*nostr.Event{damaged, bobs}
	got := HistorySuspects(events, nil, "repo")
	if len(got) != 1 || got[0] != alice {
		t.Fatalf("suspects %v", got)
	}
	if HistorySuspects(events, []*nostr.Event{complete}, "repo") != nil {
		t.Fatal("a cached complete version needs no question")
	}
	// A legacy repository (nobody has role records) is ngit's shape, not damage.
	legacyBob := historyAnn(t, bobSK, 150, nostr.Tag{"maintainers", alice, bob})
	if HistorySuspects([]*nostr.Event{damaged, legacyBob}, nil, "repo") != nil {
		t.Fatal("an all-legacy repository is not asked about")
	}
	// Listing only oneself is the implicit sole maintainer.
	sole := historyAnn(t, aliceSK, 200, nostr.Tag{"maintainers", alice})
	if HistorySuspects([]*nostr.Event{sole, bobs}, nil, "repo") != nil {
		t.Fatal("a sole maintainer's announcement is not asked about")
	}
	fs := HistoryFilters(events, "repo", got)
	if len(fs) != 1 || fs[0].Authors[0] != alice || *fs[0].Until != 199 || fs[0].Limit != MaxHistoryVersions || fs[0].Tags["d"][0] != "repo" {
		t.Fatalf("filters %+v", fs)
	}
	// What the relays return: the complete version and an unrelated older one.
	older := historyAnn(t, aliceSK, 50, nostr.Tag{"maintainers", alice, carol})
	back := EarlierComplete(events, []*nostr.Event{older, complete}, "repo")
	if len(back) != 1 || back[0].ID != complete.ID {
		t.Fatalf("earlier complete %v", back)
	}
	// The bound on authors.
	var many []*nostr.Event
	roles := nostr.Tags{}
	for i := 0; i < MaxHistoryAuthors+3; i++ {
		sk, pk := historyKey(fmt.Sprintf("%02x", 0x10+i))
		many = append(many, historyAnn(t, sk, 200, nostr.Tag{"maintainers", pk, bob}))
		roles = append(roles, nostr.Tag{"m", pk, "10"})
	}
	many = append(many, historyAnn(t, bobSK, 150, roles...))
	if n := len(HistorySuspects(many, nil, "repo")); n != MaxHistoryAuthors {
		t.Fatalf("%d suspects, want at most %d", n, MaxHistoryAuthors)
	}
}
