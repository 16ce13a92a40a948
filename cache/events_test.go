package cache

import (
	"reflect"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func TestPutQueryRoundTripAnswersDiscoveryFilter(t *testing.T) {
	c, _ := openTemp(t)
	ann := announcement(t, aliceSK, "my-repo", 100, "")
	bobAnn := announcement(t, bobSK, "my-repo", 110, "")
	other := announcement(t, aliceSK, "other-repo", 120, "")
	state := signed(t, aliceSK, 30618, 105, "", nostr.Tag{"d", "my-repo"}, nostr.Tag{"refs/heads/main", "1111111111111111111111111111111111111111"})
	del := signed(t, bobSK, 5, 130, "", nostr.Tag{"a", "30617:" + bobPK + ":my-repo"})
	if err := c.Put(ann, bobAnn, other, state, del); err != nil {
		t.Fatal(err)
	}
	// relaypool's discovery filter, answered offline.
	got := query(t, c, nostr.Filter{Kinds: []int{30617, 30618}, Tags: nostr.TagMap{"d": {"my-repo"}}})
	if want := []string{bobAnn.ID, state.ID, ann.ID}; !reflect.DeepEqual(got, want) {
		t.Fatalf("discovery: got %v want %v", got, want)
	}
	got = query(t, c, nostr.Filter{Kinds: []int{5}, Tags: nostr.TagMap{"a": {"30617:" + bobPK + ":my-repo"}}})
	if !reflect.DeepEqual(got, []string{del.ID}) {
		t.Fatalf("deletions: got %v", got)
	}
	back, err := c.Event(ann.ID)
	if err != nil || back == nil || back.ID != ann.ID || back.Sig != ann.Sig || !reflect.DeepEqual(back.Tags, ann.Tags) {
		t.Fatalf("Event round trip: %+v, %v", back, err)
	}
	if ok, _ := back.CheckSignature(); !ok {
		t.Fatal("a cached event no longer verifies")
	}
}

func TestQueryFilterFields(t *testing.T) {
	c, _ := openTemp(t)
	a1 := signed(t, aliceSK, 1, 100, "a1")
	a2 := signed(t, aliceSK, 1, 200, "a2", nostr.Tag{"e", "x"})
	b1 := signed(t, bobSK, 1, 150, "b1")
	if err := c.Put(a1, a2, b1); err != nil {
		t.Fatal(err)
	}
	since, until := nostr.Timestamp(120), nostr.Timestamp(180)
	tests := []struct {
		name string
		f    nostr.Filter
		want []string
	}{
		{"all, newest first", nostr.Filter{}, []string{a2.ID, b1.ID, a1.ID}},
		{"authors", nostr.Filter{Authors: []string{alicePK}}, []string{a2.ID, a1.ID}},
		{"ids, deduplicated", nostr.Filter{IDs: []string{a1.ID, b1.ID, a1.ID, "nope"}}, []string{b1.ID, a1.ID}},
		{"since and until", nostr.Filter{Since: &since, Until: &until}, []string{b1.ID}},
		{"tag", nostr.Filter{Tags: nostr.TagMap{"e": {"x"}}}, []string{a2.ID}},
		{"limit", nostr.Filter{Kinds: []int{1}, Limit: 2}, []string{a2.ID, b1.ID}},
		{"limit zero", nostr.Filter{Kinds: []int{1}, LimitZero: true}, []string{}},
		{"kind not cached", nostr.Filter{Kinds: []int{7}}, []string{}},
	}
	for _, tt := range tests {
		if got := query(t, c, tt.f); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %v want %v", tt.name, got, tt.want)
		}
	}
}

func TestPutRechecksIDAndSignature(t *testing.T) {
	c, _ := openTemp(t)
	good := signed(t, aliceSK, 1, 100, "good")
	badID := signed(t, aliceSK, 1, 100, "bad id")
	badID.Content = "tampered" // id no longer matches
	badSig := signed(t, aliceSK, 1, 100, "bad sig")
	other := signed(t, bobSK, 1, 100, "bad sig")
	badSig.Sig = other.Sig
	ephemeral := signed(t, aliceSK, 20001, 100, "")
	res, err := c.PutReport(good, badID, badSig, nil, ephemeral, good)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stored != 1 || res.Known != 1 || len(res.Rejected) != 4 {
		t.Fatalf("result %+v", res)
	}
	if got := query(t, c, nostr.Filter{}); !reflect.DeepEqual(got, []string{good.ID}) {
		t.Fatalf("stored %v", got)
	}
}

// NIP-01: for addressable events only the latest is kept; newest created_at,
// then the LOWEST id wins a tie. The cache keeps no other version: a newer
// event deletes the older from the file, and an older one arriving later is
// not stored.
func TestLatestAddressableNewestCreatedAtWinsAndOnlyItIsKept(t *testing.T) {
	c, _ := openTemp(t)
	old := announcement(t, aliceSK, "r", 100, "old")
	newer := announcement(t, aliceSK, "r", 200, "new")
	newest := announcement(t, aliceSK, "r", 300, "newest")
	if res, err := c.PutReport(old); err != nil || res.Stored != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	if res, err := c.PutReport(newer); err != nil || res.Stored != 1 || res.Replaced != 1 {
		t.Fatalf("newer: %+v, %v; want stored, replacing the old", res, err)
	}
	if res, err := c.PutReport(old); err != nil || res.Stored != 0 || res.Superseded != 1 { // arriving later must not win
		t.Fatalf("old again: %+v, %v; want superseded", res, err)
	}
	if got := query(t, c, nostr.Filter{Kinds: []int{30617}}); !reflect.DeepEqual(got, []string{newer.ID}) {
		t.Fatalf("got %v want only the newer", got)
	}
	// The superseded version is gone from the file, by id too.
	if got := query(t, c, nostr.Filter{IDs: []string{old.ID}}); len(got) != 0 {
		t.Fatalf("old by id: %v", got)
	}
	if evt, err := c.Event(old.ID); err != nil || evt != nil {
		t.Fatalf("old still stored: %v, %v", evt, err)
	}
	// Within one Put, too.
	if res, err := c.PutReport(newest, newer); err != nil || res.Stored != 1 || res.Replaced != 1 || res.Superseded != 1 {
		t.Fatalf("newest: %+v, %v", res, err)
	}
	info, err := c.Info()
	if err != nil || info.Events != 1 || info.Addresses != 1 {
		t.Fatalf("info %+v, %v; want one event at one address", info, err)
	}
}

func TestLatestAddressableTieLowestIDWins(t *testing.T) {
	var lo, hi *nostr.Event
	for i := 0; lo == nil || lo.ID == hi.ID; i++ {
		a := announcement(t, aliceSK, "r", 100, "a"+string(rune('a'+i)))
		b := announcement(t, aliceSK, "r", 100, "b"+string(rune('a'+i)))
		lo, hi = a, b
		if b.ID < a.ID {
			lo, hi = b, a
		}
	}
	for _, order := range [][]*nostr.Event{{lo, hi}, {hi, lo}} {
		c, _ := openTemp(t)
		for _, e := range order {
			if err := c.Put(e); err != nil {
				t.Fatal(err)
			}
		}
		if got := query(t, c, nostr.Filter{Kinds: []int{30617}, Tags: nostr.TagMap{"d": {"r"}}}); !reflect.DeepEqual(got, []string{lo.ID}) {
			t.Fatalf("insert order %v: got %v, want lowest id %s", ids(order), got, lo.ID)
		}
	}
}

func TestReplaceableKindKeepsLatestPerPubkey(t *testing.T) {
	c, _ := openTemp(t)
	p1 := signed(t, aliceSK, 0, 100, `{"name":"a"}`)
	p2 := signed(t, aliceSK, 0, 200, `{"name":"b"}`)
	pb := signed(t, bobSK, 0, 50, `{"name":"bob"}`)
	if err := c.Put(p2, p1, pb); err != nil {
		t.Fatal(err)
	}
	if got := query(t, c, nostr.Filter{Kinds: []int{0}}); !reflect.DeepEqual(got, []string{p2.ID, pb.ID}) {
		t.Fatalf("got %v", got)
	}
	// Distinct d values are distinct addresses.
	r1 := announcement(t, aliceSK, "one", 100, "")
	r2 := announcement(t, aliceSK, "two", 90, "")
	if err := c.Put(r1, r2); err != nil {
		t.Fatal(err)
	}
	if got := query(t, c, nostr.Filter{Kinds: []int{30617}}); !reflect.DeepEqual(got, []string{r1.ID, r2.ID}) {
		t.Fatalf("got %v", got)
	}
}

// NIP-09: a deletion only counts for its author's own events and addresses.
func TestDeletionsIndexTheirTargetsForTheAuthorOnly(t *testing.T) {
	c, _ := openTemp(t)
	ann := announcement(t, aliceSK, "r", 100, "")
	note := signed(t, aliceSK, 1, 100, "note")
	addr := "30617:" + alicePK + ":r"
	byAlice := signed(t, aliceSK, 5, 200, "", nostr.Tag{"a", addr}, nostr.Tag{"e", note.ID})
	byBob := signed(t, bobSK, 5, 210, "", nostr.Tag{"a", addr}, nostr.Tag{"e", note.ID})
	if err := c.Put(ann, note, byAlice, byBob); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{addr, note.ID} {
		dels, err := c.DeletedBy(target)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids(dels), []string{byAlice.ID}) {
			t.Fatalf("DeletedBy(%s) = %v, want only Alice's", target, ids(dels))
		}
	}
	// The deleted announcement stays readable (the spec keeps the last signed snapshot).
	if got := query(t, c, nostr.Filter{Kinds: []int{30617}}); !reflect.DeepEqual(got, []string{ann.ID}) {
		t.Fatalf("got %v", got)
	}
	if got := query(t, c, nostr.Filter{Kinds: []int{5}}); len(got) != 2 {
		t.Fatalf("both deletion events are cached events: %v", got)
	}
	// An id deletion whose target is not cached yet is reported as recorded.
	unknown := signed(t, bobSK, 5, 300, "", nostr.Tag{"e", "ab" + note.ID[2:]})
	if err := c.Put(unknown); err != nil {
		t.Fatal(err)
	}
	if dels, _ := c.DeletedBy("ab" + note.ID[2:]); len(dels) != 1 {
		t.Fatalf("got %v", ids(dels))
	}
}

// Query skips stored events whose JSON lacks a filter's tag value without
// decoding them; values a JSON encoder may escape are left to the filter,
// so they still match.
func TestQueryTagFilterMatchesEscapedAndPlainValues(t *testing.T) {
	c, _ := openTemp(t)
	plain := announcement(t, aliceSK, "my-repo.v2", 100, "")
	tricky := announcement(t, aliceSK, `a<b>&"c" é`, 100, "")
	other := announcement(t, bobSK, "other", 100, "mentions \"my-repo.v2\" in its content only")
	if err := c.Put(plain, tricky, other); err != nil {
		t.Fatal(err)
	}
	for d, want := range map[string][]string{
		"my-repo.v2":  {plain.ID},
		`a<b>&"c" é`:  {tricky.ID},
		"absent":      {},
		"my-repo":     {},
		"my-repo.v2 ": {},
	} {
		if got := query(t, c, nostr.Filter{Kinds: []int{30617}, Tags: nostr.TagMap{"d": {d}}}); !reflect.DeepEqual(got, want) {
			t.Errorf("#d %q: got %v want %v", d, got, want)
		}
	}
}
