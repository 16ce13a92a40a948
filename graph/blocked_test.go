package graph

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func parsed(t *testing.T, e *nostr.Event) *Announcement {
	t.Helper()
	a, err := ParseAnnouncement(e)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// "Self-defer is invalid, cannot grant current or historical authority";
// "A valid active self-role whose signed start is later than the malformed
// interval's last valid start supersedes it ... If signed boundaries do not
// order the records, the client cannot assume that one supersedes the
// other." and "An author whose relevant self-records are exclusively
// unparseable is blocked exactly like an author with an unsuperseded
// invalid self-defer".
func TestSelfBlockedFollowsSupersedingRule(t *testing.T) {
	cases := []struct {
		name     string
		tags     [][]string
		blocked  bool
		blocking []string // raw subjects' letters+first boundary of the blocking records
	}{
		{"plain self-defer blocks", [][]string{{"m", "<bob>", "200", "defer"}, {"M", "<alice>", "200"}}, true, []string{"m"}},
		{"later signed self-role supersedes", [][]string{{"m", "<bob>", "200", "defer"}, {"M", "<bob>", "300"}}, false, nil},
		{"same start does not supersede", [][]string{{"m", "<bob>", "200", "defer"}, {"M", "<bob>", "200"}}, true, []string{"m"}},
		{"earlier start does not supersede", [][]string{{"m", "<bob>", "200", "defer"}, {"M", "<bob>", "100"}}, true, []string{"m"}},
		{"untimed successor does not order", [][]string{{"m", "<bob>", "200", "defer"}, {"M", "<bob>"}}, true, []string{"m"}},
		{"ended successor does not supersede", [][]string{{"m", "<bob>", "200", "defer"}, {"M", "<bob>", "300", "400"}}, true, []string{"m"}},
		{"self-o supersedes too", [][]string{{"o", "<bob>", "200", "defer"}, {"o", "<bob>", "300"}}, false, nil},
		{"only malformed self-records block", [][]string{{"m", "<bob>", "x"}, {"M", "<alice>"}}, true, []string{"m"}},
		{"malformed beside a valid self-record does not block", [][]string{{"m", "<bob>", "x"}, {"m", "<bob>", "100"}}, false, nil},
		{"malformed beside a numeric self end does not block", [][]string{{"M", "<bob>", "x"}, {"m", "<bob>", "100", "200"}}, false, nil},
		{"malformed third-party records do not block", [][]string{{"m", "<carol>", "x"}, {"m", "<bob>"}}, false, nil},
		{"third-party defer copy is history, not a block", [][]string{{"m", "<carol>", "100", "defer"}, {"m", "<bob>"}}, false, nil},
		{"no role tag at all", [][]string{{"name", "x"}}, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := parsed(t, ann(t, "bob", 500, c.tags...))
			if got := a.SelfBlocked(); got != c.blocked {
				t.Fatalf("SelfBlocked = %v, want %v", got, c.blocked)
			}
			recs := a.BlockingSelfRecords()
			if len(recs) != len(c.blocking) {
				t.Fatalf("BlockingSelfRecords = %v, want %d records", recs, len(c.blocking))
			}
			for i, r := range recs {
				if string(r.Letter) != c.blocking[i] || r.Subject != pk("bob") || r.Raw[0] != c.blocking[i] {
					t.Fatalf("blocking record %d = %v", i, r.Raw)
				}
			}
			// The graph must agree with the exported check.
			res := resolve(t, "bob", ann(t, "bob", 500, c.tags...))
			if c.blocked && (res.Confirmed(pk("bob")) || res.AuthorizedNow(pk("bob"), ActionState)) {
				t.Fatalf("a blocked author was confirmed: %s %v", res.LeadSource, res.Maintainers)
			}
		})
	}
}

// A superseded self-defer stays visible (as a warning) but blocks nothing.
func TestSupersededSelfDeferIsReported(t *testing.T) {
	a := parsed(t, ann(t, "bob", 500, []string{"m", "<bob>", "200", "defer"}, []string{"M", "<bob>", "300"}))
	if !a.SupersededSelfDefer(0) || a.SupersededSelfDefer(1) {
		t.Fatalf("superseded: %v %v", a.SupersededSelfDefer(0), a.SupersededSelfDefer(1))
	}
	b := parsed(t, ann(t, "bob", 500, []string{"m", "<bob>", "200", "defer"}))
	if b.SupersededSelfDefer(0) {
		t.Fatal("an unsuperseded self-defer was reported superseded")
	}
}
