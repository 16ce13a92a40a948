package discovery_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// writeSource is a write's discovery source: everyone's relays, with
// reach the named people.
func writeSource(t *testing.T, relays []string, reach ...string) discovery.Source {
	src := cachedSource(t, t.TempDir(), relays...)
	src.Write, src.Reach = true, reach
	return src
}

func relayList(t testing.TB, name string, at int64, tags ...nostr.Tag) *nostr.Event {
	return testkeys.Event(t, key(name), discovery.KindRelayList, at, "", tags...)
}

func hasEvent(evs []*nostr.Event, id string) bool {
	return slices.ContainsFunc(evs, func(e *nostr.Event) bool { return e.ID == id })
}

// Rule (relay disagreement: a write asks everyone's relays): a write asks
// the relays announced by every reached component's announcements and the
// named person's NIP-65 write relays, found on the relays already asked,
// in rounds until no new relay appears; a NIP-65 read relay is not asked.
// What the new relays hold is verified, resolved and cached.
func TestWriteDiscoveryAsksEveryonesRelaysUntilNoNewOneAppears(t *testing.T) {
	rs := devrelay.StartN(t, 6, devrelay.Options{})
	home, r1, r2, r3, write, read := rs[0], rs[1], rs[2], rs[3], rs[4], rs[5]
	alice, bob, carol := pub(t, "alice"), pub(t, "bob"), pub(t, "carol")
	c := graph.NewCoordinate(alice, "repo")
	// home: Alice's announcement (naming Bob, listing r1) and Bob's NIP-65
	// list (write relay `write`, read relay `read`); r1: Bob's announcement
	// (naming Carol, listing r2); r2: Carol's (listing r3); r3: Bob's state.
	publish(t, home, announce(t, "alice", "repo", 100, nostr.Tag{"M", alice}, nostr.Tag{"m", bob, "90"}, nostr.Tag{"relays", home.URL(), r1.URL()}),
		relayList(t, "bob", 50, nostr.Tag{"r", write.URL(), "write"}, nostr.Tag{"r", read.URL(), "read"}))
	publish(t, r1, announce(t, "bob", "repo", 110, nostr.Tag{"M", alice, "90"}, nostr.Tag{"m", bob, "90"}, nostr.Tag{"m", carol, "95"}, nostr.Tag{"relays", r2.URL()}))
	publish(t, r2, announce(t, "carol", "repo", 120, nostr.Tag{"M", alice, "95"}, nostr.Tag{"m", carol, "95"}, nostr.Tag{"relays", r3.URL()}))
	st := testkeys.Event(t, key("bob"), graph.KindState, 300, "", nostr.Tag{"d", "repo"}, nostr.Tag{"HEAD", "ref: refs/heads/main"}, nostr.Tag{"refs/heads/main", strings.Repeat("b", 40)})
	publish(t, r3, st)
	src := writeSource(t, []string{home.URL()}, bob)
	v, err := discovery.Load(context.Background(), src, selection(c), nil, discovery.Complete, alice, 1000)
	if err != nil {
		t.Fatalf("%v (%+v)", err, reports(err))
	}
	s := v.Search
	if s == nil || !s.Converged || s.Rounds != 3 || s.Given != 1 {
		t.Fatalf("search %+v, want converged after 3 extra rounds from 1 given relay", s)
	}
	want := []string{home.URL(), r1.URL(), write.URL(), r2.URL(), r3.URL()}
	if !slices.Equal(v.Relays, want) {
		t.Fatalf("asked %v, want %v", v.Relays, want)
	}
	if n := read.ReqCount(); n != 0 {
		t.Errorf("the NIP-65 read relay got %d REQs, want none", n)
	}
	// The relay lists ride in the first request: the first relay got that
	// and the deletion round, no request of their own.
	if reqs := home.Requests(); len(reqs) != 2 || !slices.ContainsFunc(reqs[0], func(f nostr.Filter) bool {
		return slices.Equal(f.Kinds, []int{discovery.KindRelayList}) && slices.Equal(f.Authors, []string{min(alice, bob), max(alice, bob)})
	}) {
		t.Errorf("requests to the first relay: %v, want the relay lists of Alice and Bob in the first of 2", reqs)
	}
	// Published where Alice's repository lives: the relay given and the
	// one her announcement lists, not where the others' events live.
	if got := v.PublishRelays(); !slices.Equal(got, []string{home.URL(), r1.URL()}) {
		t.Errorf("publish relays %v, want home and r1", got)
	}
	if !hasEvent(v.Events, st.ID) {
		t.Fatalf("Bob's state from the relay Carol's announcement lists is not in the view")
	}
	// Verified events from the new relays land in the cache.
	store, err := src.OpenCache()
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	got, err := store.Query(nostr.Filter{IDs: []string{st.ID}})
	if err != nil || len(got) != 1 {
		t.Fatalf("the state from r3 is not cached: %v %v", got, err)
	}
	for _, l := range s.Learned {
		if l.URL == write.URL() && (l.From != "relay-list" || l.Pubkey != bob || l.Round != 1) {
			t.Errorf("write relay learned as %+v, want from Bob's relay list in round 1", l)
		}
	}
	if line := s.Checked(); !strings.Contains(line, "relays asked: 5") || !strings.Contains(line, "converged after 3 extra rounds") {
		t.Errorf("checked line %q", line)
	}
	// A read stays one extra round, on the selected announcement's relays.
	rd := cachedSource(t, t.TempDir(), home.URL())
	v, err = discovery.Load(context.Background(), rd, selection(c), nil, discovery.Complete, alice, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if v.Search != nil || !slices.Equal(v.Relays, []string{home.URL(), r1.URL()}) {
		t.Fatalf("read asked %v (search %+v), want home and r1", v.Relays, v.Search)
	}
}

// Rule (bounded rounds): a write whose relays have not converged after
// MaxWriteRounds extra rounds is a *RelayBound error; the relay a fourth
// round would ask is never asked.
func TestWriteDiscoveryThatNeedsAFourthRoundIsRelayBound(t *testing.T) {
	rs := devrelay.StartN(t, 5, devrelay.Options{})
	names := []string{"alice", "bob", "carol", "dave", "erin"}
	for i := range 4 {
		tags := []nostr.Tag{{"M", pub(t, "alice")}, {"m", pub(t, names[i+1]), "90"}, {"relays", rs[i+1].URL()}}
		publish(t, rs[i], announce(t, names[i], "repo", 100, tags...))
	}
	c := graph.NewCoordinate(pub(t, "alice"), "repo")
	_, err := discovery.Load(context.Background(), writeSource(t, []string{rs[0].URL()}), selection(c), nil, discovery.Complete, "", 1000)
	var b *discovery.RelayBound
	if !errors.As(err, &b) || !b.Rounds {
		t.Fatalf("err %v, want a RelayBound on rounds", err)
	}
	if b.Search.Rounds != discovery.MaxWriteRounds || !slices.Equal(b.Wanted, []string{rs[4].URL()}) || b.View == nil || len(b.View.Relays) != 4 {
		t.Fatalf("bound %+v, want %d rounds, 4 relays asked, %s wanted", b.Search, discovery.MaxWriteRounds, rs[4].URL())
	}
	if n := rs[4].ReqCount(); n != 0 {
		t.Fatalf("the relay past the bound got %d REQs", n)
	}
}

// Rule (bounded relays, never silently): an announcement listing 6,000
// relays makes a write a *RelayBound error before any of them is asked (a
// read asks the first 32 of them: TestReadOfAnAnnouncementListing6000RelaysAsksAtMostTheBound);
// the collection stops one relay past the room left.
func TestWriteDiscoveryOverMaxWriteRelaysIsRelayBound(t *testing.T) {
	home := devrelay.StartN(t, 1, devrelay.Options{})[0]
	sink := devrelay.StartN(t, 1, devrelay.Options{})[0]
	c := graph.NewCoordinate(pub(t, "alice"), "repo")
	publish(t, home, announce(t, "alice", "repo", 100, nostr.Tag{"M", c.Pubkey}, manyRelays(sink, 6000)))
	_, err := discovery.Load(context.Background(), writeSource(t, []string{home.URL()}), selection(c), nil, discovery.Complete, "", 1000)
	var b *discovery.RelayBound
	if !errors.As(err, &b) || b.Rounds {
		t.Fatalf("err %v, want a RelayBound on relays", err)
	}
	if len(b.Wanted) != discovery.MaxWriteRelays || b.Search.Rounds != 0 {
		t.Fatalf("%d wanted after %d rounds, want the %d that overflow the room left by the 1 given", len(b.Wanted), b.Search.Rounds, discovery.MaxWriteRelays)
	}
	if n := sink.ReqCount(); n != 0 {
		t.Fatalf("the listed relays got %d REQs, want none", n)
	}
	// Exactly at the bound is fine: 1 given + 31 announced.
	home2 := devrelay.StartN(t, 1, devrelay.Options{})[0]
	publish(t, home2, announce(t, "alice", "repo", 100, nostr.Tag{"M", c.Pubkey}, manyRelays(sink, discovery.MaxWriteRelays-1)))
	v, err := discovery.Load(context.Background(), writeSource(t, []string{home2.URL()}), selection(c), nil, discovery.Complete, "", 1000)
	if err != nil || len(v.Relays) != discovery.MaxWriteRelays || !v.Search.Converged {
		t.Fatalf("at the bound: %v, %d relays", err, len(v.Relays))
	}
}

// Rule (untrusted relay URLs): entries that are not ws:// or wss:// URLs
// with a host are not dialled, however many there are, and are counted; a
// flood of announcements from keys nobody reached names at most
// MaxEvidenceRelays relays, asked as evidence only and not counted toward
// the bound; the user's pinned relays (--relay) are the only ones asked.
func TestWriteDiscoveryIgnoresHostileAndUnreachedRelayEntries(t *testing.T) {
	home, good := devrelay.StartN(t, 1, devrelay.Options{})[0], devrelay.StartN(t, 1, devrelay.Options{})[0]
	spamSink := devrelay.StartN(t, 1, devrelay.Options{})[0]
	c := graph.NewCoordinate(pub(t, "alice"), "repo")
	junk := nostr.Tag{"relays"}
	for i := range 5_000 {
		junk = append(junk, fmt.Sprintf("https://relay%d.example", i))
	}
	junk = append(junk, "ws://", "relay.example", "wss://user:pw@relay.example", "ws://127.0.0.1:99999", "wss://r.example/?q=1", "wss://r.example/#x", "wss://r.example/\x1b[2J", good.URL())
	publish(t, home, announce(t, "alice", "repo", 100, nostr.Tag{"M", c.Pubkey}, junk))
	for i := range 50 {
		spam := testkeys.Event(t, key(fmt.Sprint("spam", i)), graph.KindAnnouncement, 200, "", nostr.Tag{"d", "repo"}, nostr.Tag{"relays", fmt.Sprintf("%s/s%d", spamSink.URL(), i)})
		publish(t, home, spam)
	}
	v, err := discovery.Load(context.Background(), writeSource(t, []string{home.URL()}), selection(c), nil, discovery.Complete, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Relays[:2], []string{home.URL(), good.URL()}) || v.Search.Ignored != 5_007 || v.Search.Rounds != 1 || len(v.Search.Learned) != 1 {
		t.Fatalf("asked %v, %d ignored, %d rounds; want home and the one good relay first, 5007 ignored, 1 round", v.Relays, v.Search.Ignored, v.Search.Rounds)
	}
	if len(v.Search.Evidence) != discovery.MaxEvidenceRelays || len(v.Relays) != 2+discovery.MaxEvidenceRelays {
		t.Fatalf("%d evidence-only relays, %d asked; want %d of the unreached announcements' relays, as evidence only", len(v.Search.Evidence), len(v.Relays), discovery.MaxEvidenceRelays)
	}
	for _, l := range v.Search.Evidence {
		if !strings.HasPrefix(l.URL, spamSink.URL()+"/s") || slices.Contains(v.Search.Learned, l) {
			t.Fatalf("evidence-only relay %+v", l)
		}
	}
	pinned := writeSource(t, []string{home.URL()}, pub(t, "bob"))
	pinned.Pinned = true
	mark, goodReqs := len(home.Requests()), good.ReqCount()
	v, err = discovery.Load(context.Background(), pinned, selection(c), nil, discovery.Complete, pub(t, "alice"), 1000)
	if err != nil || !slices.Equal(v.Relays, []string{home.URL()}) || !v.Search.Pinned || good.ReqCount() != goodReqs {
		t.Fatalf("pinned: %v, asked %v", err, v.Relays)
	}
	for _, req := range home.Requests()[mark:] {
		if slices.ContainsFunc(req, func(f nostr.Filter) bool { return slices.Contains(f.Kinds, discovery.KindRelayList) }) {
			t.Errorf("a pinned write asked for relay lists it will not use: %v", req)
		}
	}
}

// Rule (NIP-65): a write relay is an `r` tag without a marker or marked
// "write", from the person's latest relay list only.
func TestWriteRelaysOfTheLatestNIP65List(t *testing.T) {
	old := relayList(t, "bob", 10, nostr.Tag{"r", "wss://old.example"})
	cur := relayList(t, "bob", 20, nostr.Tag{"r", "wss://both.example"}, nostr.Tag{"r", "wss://w.example", "write"},
		nostr.Tag{"r", "wss://r.example", "read"}, nostr.Tag{"r", "wss://odd.example", "sometimes"}, nostr.Tag{"relay", "wss://x.example"}, nostr.Tag{"r"})
	other := relayList(t, "carol", 30, nostr.Tag{"r", "wss://carol.example"})
	got := discovery.WriteRelays([]*nostr.Event{old, other, cur}, pub(t, "bob"))
	if !slices.Equal(got, []string{"wss://both.example", "wss://w.example"}) {
		t.Fatalf("write relays %v", got)
	}
	if got := discovery.WriteRelays([]*nostr.Event{other}, pub(t, "bob")); got != nil {
		t.Fatalf("no list: %v", got)
	}
	if f, ok := discovery.RelayListFilter([]string{"", pub(t, "bob"), "NOTHEX", pub(t, "bob")}); !ok || !slices.Equal(f.Authors, []string{pub(t, "bob")}) || !slices.Equal(f.Kinds, []int{10002}) {
		t.Fatalf("filter %+v", f)
	}
	if _, ok := discovery.RelayListFilter([]string{""}); ok {
		t.Fatal("a filter with no author")
	}
}

// Rule (untrusted relay URLs): ws:// or wss:// with a host, normalized.
func TestRelayURLFromAnEvent(t *testing.T) {
	ok := map[string]string{
		"wss://Relay.Example/":      "wss://relay.example",
		"WS://127.0.0.1:7777/path/": "ws://127.0.0.1:7777/path",
		"wss://relay.example:443":   "wss://relay.example:443",
		"wss://[::1]:8080":          "wss://[::1]:8080",
	}
	for in, want := range ok {
		if got, err := discovery.RelayURL(in); err != nil || got != want {
			t.Errorf("RelayURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "relay.example", "https://relay.example", "http://relay.example", "ftp://relay.example", "ws://", "wss:///path",
		"wss://u@relay.example", "wss://relay.example/?a=b", "wss://relay.example/?", "wss://relay.example/#f", "wss://relay.example:0", "wss://relay.example:70000",
		"wss://relay.example:port", "wss://relay .example", "wss://relay.example/\n", "wss://relay.example/\u202e", "wss://" + strings.Repeat("a", 300) + ".example", "ws:relay.example"} {
		if got, err := discovery.RelayURL(in); err == nil {
			t.Errorf("RelayURL(%q) = %q, want refused", in, got)
		}
	}
}
