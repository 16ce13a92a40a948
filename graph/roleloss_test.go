package graph

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// The roster before the damage: Alice leads, invites Carol and names Dave
// moderator; Bob is confirmed.
func lossScene(t *testing.T) (aliceComplete, bob, dave *nostr.Event) {
	t.Helper()
	a := ann(t, "alice", 100, []string{"name", "widgets"}, []string{"M", "<alice>"}, []string{"m", "<bob>", "50"},
		[]string{"m", "<carol>", "60"}, []string{"o", "<dave>", "70"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	b := ann(t, "bob", 90, []string{"M", "<alice>", "50"}, []string{"m", "<bob>", "50"}, []string{"maintainers", "<alice>", "<bob>"})
	d := ann(t, "dave", 95, []string{"o", "<dave>", "70"})
	return a, b, d
}

// "fewer role records than that author's previous version ... while its
// maintainers tag still lists people": a client that keeps only web and
// maintainers when it republishes.
func TestRoleRecordsDroppedByARepublishThatKeepsMaintainersIsDetected(t *testing.T) {
	complete, bob, dave := lossScene(t)
	nak := ann(t, "alice", 200, []string{"name", "widgets"}, []string{"web", "https://w.example"}, []string{"maintainers", "<alice>", "<bob>", "<carol>"})
	lost := LostRoleRecords(complete, nak)
	if len(lost) != 4 || lost[0][0] != "M" || lost[3][0] != "o" {
		t.Fatalf("all four role records are lost: %v", lost)
	}
	r := Resolve([]*nostr.Event{nak, bob, dave}, sel("alice"), 10_000, Options{Viewer: pk("alice")})
	losses := RoleLosses(r, []*nostr.Event{nak, bob, dave}, []*nostr.Event{complete})
	if len(losses) != 1 || losses[0].Author != pk("alice") || losses[0].Current.ID != nak.ID || losses[0].Complete.ID != complete.ID {
		t.Fatalf("one loss in Alice's announcement: %+v", losses)
	}
	f := losses[0].Finding(pk("alice"))
	if f.Code != CodeRoleRecordsDropped || f.Severity != SeverityError || f.Author != pk("alice") || f.Command == nil || f.Command.Line() != "roster repo repair" {
		t.Fatalf("finding: %+v", f)
	}
	want := Npub(pk("alice")) + " republished this announcement without its role records, probably with a client that does not keep them"
	if len(f.Message) < len(want) || f.Message[:len(want)] != want {
		t.Fatalf("message: %q", f.Message)
	}
	if g := losses[0].Finding(pk("bob")); g.Severity != SeverityWarning {
		t.Fatalf("a warning for everyone else: %+v", g)
	}
}

// A deliberate change drops the person from `maintainers` too: a withdrawn
// invitation (its record removed with its projection) is no damage, nor is
// a version with as many records, nor the same or an older event.
func TestRoleRecordsRemovedWithTheirProjectionAreNoDamage(t *testing.T) {
	complete, _, _ := lossScene(t)
	withdrawn := ann(t, "alice", 200, []string{"name", "widgets"}, []string{"M", "<alice>"}, []string{"m", "<bob>", "50"},
		[]string{"o", "<dave>", "70"}, []string{"maintainers", "<alice>", "<bob>"})
	if lost := LostRoleRecords(complete, withdrawn); lost != nil {
		t.Fatalf("a withdrawal is not damage: %v", lost)
	}
	ended := ann(t, "alice", 200, []string{"M", "<alice>"}, []string{"m", "<bob>", "50"},
		[]string{"m", "<carol>", "60", "200"}, []string{"o", "<dave>", "70"}, []string{"maintainers", "<alice>", "<bob>"})
	if lost := LostRoleRecords(complete, ended); lost != nil {
		t.Fatalf("an ended record keeps the count: %v", lost)
	}
	if LostRoleRecords(complete, complete) != nil {
		t.Fatal("the same event is not damage")
	}
	older := ann(t, "alice", 10, []string{"maintainers", "<alice>", "<bob>"})
	if LostRoleRecords(complete, older) != nil {
		t.Fatal("an older event is not a republish")
	}
	sole := ann(t, "alice", 200, []string{"name", "widgets"})
	if LostRoleRecords(complete, sole) != nil {
		t.Fatal("an announcement whose maintainers tag lists nobody is the implicit sole maintainer's, not damage")
	}
	other := ann(t, "bob", 200, []string{"maintainers", "<alice>", "<bob>"})
	if LostRoleRecords(complete, other) != nil {
		t.Fatal("another author's announcement is another address")
	}
}

// "an announcement by a current or former maintainer": a stranger's loss
// is not reported; a maintainer whom the damage itself removed still is.
func TestRoleLossesAreReportedForCurrentAndFormerMaintainersOnly(t *testing.T) {
	complete, bob, dave := lossScene(t)
	nak := ann(t, "alice", 200, []string{"maintainers", "<alice>", "<bob>"})
	strangerComplete := ann(t, "mallory", 100, []string{"M", "<mallory>"}, []string{"m", "<eve>"}, []string{"maintainers", "<mallory>", "<eve>"})
	strangerNow := ann(t, "mallory", 200, []string{"maintainers", "<mallory>", "<eve>"})
	events := []*nostr.Event{nak, bob, dave, strangerNow}
	r := Resolve(events, sel("alice"), 10_000, Options{})
	losses := RoleLosses(r, events, []*nostr.Event{complete, strangerComplete})
	if len(losses) != 1 || losses[0].Author != pk("alice") {
		t.Fatalf("only Alice's loss: %+v", losses)
	}
	// Bob's own announcement lost his records: the damage leaves him
	// without a self-role, yet he was confirmed before it.
	bobNak := ann(t, "bob", 300, []string{"maintainers", "<alice>", "<bob>"})
	events = []*nostr.Event{complete, bobNak, dave}
	r = Resolve(events, sel("alice"), 10_000, Options{})
	losses = RoleLosses(r, events, []*nostr.Event{bob})
	if len(losses) != 1 || losses[0].Author != pk("bob") {
		t.Fatalf("Bob's loss: %+v", losses)
	}
	before := Resolve(Undamaged(events, losses), sel("alice"), 10_000, Options{})
	if statusOf(before, "bob") != StatusConfirmed {
		t.Fatalf("undamaged, Bob is confirmed: %+v", before.Maintainers)
	}
}
