package preflight

import (
	"math"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/golden"
	"github.com/roster-cli/roster/graph"
)

// Rule (a replacement orders after what it replaces by time, never by an id
// tie): the replacement is dated at signing time, and strictly after every
// announcement of the author's coordinate the preview used, even when the
// signer's clock reads the same second as the base or an earlier one.
func TestReplacementIsDatedStrictlyAfterEveryEventOfItsCoordinate(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 4000)
	w.announce("alice", 5000)
	p, r := w.prepare("alice", "alice", 5000, Intent{Action: ActAdd, Subject: pk("bob")})
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	if p.NotBefore != 5001 || p.CreatedAt != 5001 {
		t.Fatalf("NotBefore %d, CreatedAt %d; want both 5001 (one second after the base)", p.NotBefore, p.CreatedAt)
	}
	for _, c := range []struct{ clock, want int64 }{
		{5000, 5001}, // the same second as the base
		{4000, 5001}, // a clock behind the base
		{0, 5001},
		{7000, 7000}, // signing later than the preview: dated at signing time
	} {
		if got := int64(p.EventAt(c.clock).CreatedAt); got != c.want {
			t.Errorf("EventAt(%d).CreatedAt = %d, want %d", c.clock, got, c.want)
		}
	}
	// A deletion addressing the coordinate counts too: a replacement dated
	// at or before it would be covered by it.
	del := &nostr.Event{Kind: nostr.KindDeletion, CreatedAt: 6000,
		Tags: nostr.Tags{{"a", graph.NewCoordinate(pk("alice"), repoID).ATag()}}}
	if err := del.Sign(golden.SecretKey("alice")); err != nil {
		t.Fatal(err)
	}
	bobs := &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 9000, Tags: nostr.Tags{{"d", repoID}}}
	if err := bobs.Sign(golden.SecretKey("bob")); err != nil {
		t.Fatal(err)
	}
	if floor, _ := replacementFloor(append(w.events, del, bobs), pk("alice"), repoID, 6000); floor != 6001 {
		t.Fatalf("floor %d, want 6001: after Alice's deletion of her coordinate, not after Bob's announcement", floor)
	}
}

// Rule (a replacement must be datable after its base): an announcement dated
// at the int64 maximum cannot be replaced by any later event, and one more
// second would wrap around to before 1970. The change is refused naming the
// event and why its created_at is unusable, instead of being previewed with
// a wrapped date.
func TestBaseDatedAtTheLargestTimeIsRefused(t *testing.T) {
	w := &world{t: t}
	base := w.announce("alice", math.MaxInt64)
	r := w.refused("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, "base-in-the-future")
	if !strings.Contains(r.Message, base.ID) || !strings.Contains(r.Message, "unusable") {
		t.Fatalf("message does not name the event and why:\n%s", r.Message)
	}
	if r.Details["event"] != base.ID || len(r.Commands) == 0 {
		t.Fatalf("details %v, commands %v", r.Details, r.Commands)
	}
}

// Rule (never date an event so far ahead that it locks the next edit out):
// a base dated at int64 max − 2 would make the replacement max − 1, after
// which one edit is left and then none; a base dated 20 minutes after the
// clock would make ours 20 minutes ahead, which relays refuse. Both are
// refused base-in-the-future naming the event; a base 10 minutes ahead (a
// clock a little behind) is followed one second after it.
func TestAReplacementIsNeverDatedFarAfterTheClock(t *testing.T) {
	const now = 1_700_000_000
	for _, at := range []int64{math.MaxInt64 - 2, math.MaxInt64 - 1, now + 20*60} {
		w := &world{t: t}
		base := w.announce("alice", at)
		r := w.refused("alice", "alice", now, Intent{Action: ActAdd, Subject: pk("bob")}, "base-in-the-future")
		if !strings.Contains(r.Message, base.ID) || !strings.Contains(r.Message, "minutes after this machine's clock") || r.Details["event"] != base.ID {
			t.Fatalf("base at %d: %s %v", at, r.Message, r.Details)
		}
	}
	w := &world{t: t}
	w.announce("alice", now+10*60)
	p, r := w.prepare("alice", "alice", now, Intent{Action: ActAdd, Subject: pk("bob")})
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	if p.CreatedAt != now+10*60+1 {
		t.Fatalf("CreatedAt %d, want %d", p.CreatedAt, now+10*60+1)
	}
}
