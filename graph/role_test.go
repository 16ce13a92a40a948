package graph

import (
	"slices"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// The examples under "Current role tags" and "Replicated role history".
func TestRoleRecordSpecExamples(t *testing.T) {
	bob := pk("bob")
	cases := []struct {
		tag      nostr.Tag
		active   bool
		defer_   bool
		lastFrom int64
		at       map[int64]bool
	}{
		{nostr.Tag{"m", bob}, true, false, 0, map[int64]bool{0: true, 5: true}},                                      // active, start unknown
		{nostr.Tag{"m", bob, "100"}, true, false, 100, map[int64]bool{99: false, 100: true}},                         // active since 100
		{nostr.Tag{"m", bob, "100", "200"}, false, false, 100, map[int64]bool{150: true, 200: false}},                // ended at 200
		{nostr.Tag{"m", bob, "100", "200", "300"}, true, false, 300, map[int64]bool{250: false, 300: true}},          // active again since 300
		{nostr.Tag{"m", bob, "300", "defer"}, false, true, 300, map[int64]bool{300: false, 1000: false}},             // third-party historical copy
		{nostr.Tag{"m", bob, "200", "defer"}, false, true, 200, map[int64]bool{250: false}},                          // "my historical view has Bob confirmed from time 200"
		{nostr.Tag{"o", bob, "100", "200", "300", "defer"}, false, true, 300, map[int64]bool{150: true, 350: false}}, // older closed interval still counts
	}
	for _, c := range cases {
		r := ParseRoleRecord(c.tag)
		if !r.Valid || r.Active() != c.active || r.Defer != c.defer_ || r.LastStart() != c.lastFrom {
			t.Fatalf("%q: valid %v active %v defer %v last start %d", c.tag, r.Valid, r.Active(), r.Defer, r.LastStart())
		}
		for at, want := range c.at {
			if r.ActiveAt(at) != want {
				t.Fatalf("%q: ActiveAt(%d) = %v", c.tag, at, !want)
			}
		}
	}
}

// "A record whose history cannot be parsed (a non-numeric boundary other
// than a final defer, a defer before the final position, or a missing,
// empty, or non-hex subject) carries no role semantics."
func TestRoleRecordUnparseableShapes(t *testing.T) {
	bob := pk("bob")
	cases := []struct {
		tag     nostr.Tag
		problem string
	}{
		{nostr.Tag{"m", bob, "soon"}, ProblemBadBoundary},
		{nostr.Tag{"m", bob, "-5"}, ProblemBadBoundary},
		{nostr.Tag{"m", bob, "100", "defer", "300"}, ProblemDeferMisplaced},
		{nostr.Tag{"m", bob, "defer"}, ProblemDeferMisplaced}, // defer is an end marker, not a start
		{nostr.Tag{"m"}, ProblemBadSubject},
		{nostr.Tag{"m", ""}, ProblemBadSubject},
		{nostr.Tag{"M", "npub1xyz"}, ProblemBadSubject},
		{nostr.Tag{"o", "AB" + bob[2:]}, ProblemBadSubject},
		{nostr.Tag{"x", bob}, ProblemNotRole},
	}
	for _, c := range cases {
		r := ParseRoleRecord(c.tag)
		if r.Valid || r.Active() || r.Problem != c.problem || !slices.Equal(r.Raw, c.tag) {
			t.Fatalf("%q: valid %v problem %q, want %q", c.tag, r.Valid, r.Problem, c.problem)
		}
	}
}

func TestParseAnnouncementMetadataAndOrder(t *testing.T) {
	euc := "0123456789abcdef0123456789abcdef01234567"
	e := ann(t, "alice", 100,
		[]string{"r", euc, "euc"}, []string{"name", "My Project"}, []string{"description", "What it does"},
		[]string{"clone", "https://a.example/x.git", "https://b.example/x.git"}, []string{"web", "https://a.example/x"},
		[]string{"relays", "wss://r1", "wss://r2"}, []string{"maintainers", "<alice>", "<bob>"}, []string{"alt", "git repository: My Project"},
		[]string{"t", "go"}, []string{"t", "nostr"}, []string{"u", "30617:<carol>:my-repo"}, []string{"m", "<bob>", "100"},
		[]string{"blossoms", "https://blossom"})
	a, err := ParseAnnouncement(e)
	if err != nil {
		t.Fatal(err)
	}
	if a.Identifier != testID || a.EUC != euc || a.Name != "My Project" || a.Description != "What it does" ||
		!slices.Equal(a.Clone, []string{"https://a.example/x.git", "https://b.example/x.git"}) || !slices.Equal(a.Web, []string{"https://a.example/x"}) ||
		!slices.Equal(a.Relays, []string{"wss://r1", "wss://r2"}) || !slices.Equal(a.Hashtags, []string{"go", "nostr"}) ||
		!slices.Equal(a.Upstreams, []string{"30617:" + pk("carol") + ":my-repo"}) || !a.HasLegacyTag || !a.RoleAware() {
		t.Fatalf("metadata: %+v", a)
	}
	if len(a.Unknown) != 2 || a.Unknown[0][0] != "alt" || a.Unknown[1][0] != "blossoms" {
		t.Fatalf("unknown tags %v", a.Unknown)
	}
	if _, err := ParseAnnouncement(&nostr.Event{Kind: KindAnnouncement, PubKey: pk("alice")}); err == nil {
		t.Fatal("an announcement without d must be rejected")
	}
	if _, err := ParseAnnouncement(&nostr.Event{Kind: KindState, PubKey: pk("alice"), Tags: nostr.Tags{{"d", "x"}}}); err == nil {
		t.Fatal("only kind 30617 is an announcement")
	}
}

// "An empty history means the start is unknown ... If that record is later
// closed at T, its materialized history is [0, T]. History displays should
// continue to label the start as unknown rather than presenting 0 as an
// observed timestamp." A closed untimed record is written ["m", X, "0", T]
// (the spec's own ["m", author, "0", "defer"] too), so a 0 start stays
// unknown, and an unknown start contradicts no other copy's start.
func TestClosedUntimedRecordKeepsUnknownStart(t *testing.T) {
	x := pk("bob")
	for _, tag := range [][]string{{"m", x, "0", "300"}, {"m", x, "0", "defer"}, {"m", x}} {
		iv := ParseRoleRecord(tag).Intervals()
		if len(iv) != 1 || iv[0].Start != 0 || !iv[0].StartUnknown {
			t.Errorf("%v: %+v, want a [0, ...] interval labelled unknown", tag, iv)
		}
	}
	if iv := ParseRoleRecord([]string{"m", x, "100", "300"}).Intervals(); iv[0].StartUnknown {
		t.Errorf("a signed start is known: %+v", iv)
	}
	closed, signed := ParseRoleRecord([]string{"m", x, "0", "300"}), ParseRoleRecord([]string{"m", x, "200", "300"})
	if recordsDisagree(closed, signed) || recordsDisagree(signed, closed) {
		t.Error("an unknown start must not contradict a signed one")
	}
	if !recordsDisagree(closed, ParseRoleRecord([]string{"m", x, "0", "350"})) {
		t.Error("different numeric ends still disagree")
	}
}
