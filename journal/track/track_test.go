package track

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/relaypool"
)

func signed(t *testing.T, sk string, kind int, tags nostr.Tags) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: 1700000000, Tags: tags}
	if err := evt.Sign(sk); err != nil {
		t.Fatal(err)
	}
	return evt
}

// Rule (one write's life in the journal): Begin keeps the events before
// they are sent, Answered records the relays' OKs, Check tells a later
// write of the same address about it with the relays holding it, and End
// keeps the entries exactly when the write was not verified and some relay
// may hold an event.
func TestAWriteIsKeptUntilVerifiedOrStoredNowhere(t *testing.T) {
	j := journal.Open(t.TempDir())
	evt := signed(t, strings.Repeat("31", 32), 9000, nostr.Tags{{"h", "g"}})
	addr := "nip-29:ws://g:g"
	w, err := Begin(j, []journal.Entry{{Pipeline: "nip-29", Address: addr, Relays: []string{"ws://g"}, Event: evt}})
	if err != nil || w.ID != evt.ID {
		t.Fatalf("begin: %v %v", w, err)
	}
	w.Answered(0)(relaypool.PublishReport{URL: "ws://g", OK: true})
	us, err := Check(j, nil, "", addr)
	if err != nil || len(us) != 1 || len(us[0].Holding[evt.ID]) != 1 || us[0].Holding[evt.ID][0] != "ws://g" {
		t.Fatalf("check: %+v %v", us, err)
	}
	if !w.End(false, true) {
		t.Fatal("an unverified write some relay may hold was not kept")
	}
	if us, _ := Check(j, nil, "", addr); len(us) != 1 {
		t.Fatal("the kept write is gone")
	}
	if w.End(false, false) {
		t.Fatal("a write no relay can hold was kept")
	}
	if us, _ := Check(j, nil, "", addr); len(us) != 0 {
		t.Fatal("the write stored nowhere is still listed")
	}
	// No journal keeps nothing and fails nothing.
	if w, err := Begin(nil, nil); err != nil || w.ID != "" || w.End(false, true) || w.Answered(0) != nil {
		t.Fatal("a nil journal kept something")
	}
	if us, err := Check(nil, nil, "", addr); err != nil || us != nil {
		t.Fatal("a nil journal listed something")
	}
}

// Rule (the journal fails closed): Check of a coordinate whose journal
// holds a file that cannot be read is an error, never an empty list.
func TestCheckFailsClosedOnAnUnreadableJournal(t *testing.T) {
	j := journal.Open(t.TempDir())
	if err := os.MkdirAll(j.Root, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(j.Root, strings.Repeat("d", 64)+"-0.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(j, nil, "30617:x:r"); !errors.Is(err, journal.ErrUnreadable) {
		t.Fatalf("check of an unreadable journal: %v", err)
	}
}

// Rule (a relay may hold an event it was sent): accepted, sent without an
// answer, or answered "duplicate:" may be stored; refused or never sent is
// not.
func TestMayBeStored(t *testing.T) {
	for _, c := range []struct {
		r    relaypool.Delivered
		want bool
	}{
		{relaypool.Delivered{OK: true}, true},
		{relaypool.Delivered{Sent: true}, true},
		{relaypool.Delivered{Sent: true, Replied: true, Message: "duplicate: have it"}, true},
		{relaypool.Delivered{Sent: true, Replied: true, Message: "blocked: no"}, false},
		{relaypool.Delivered{}, false},
	} {
		if got := MayBeStored(nil, &relaypool.Delivery{Relays: []relaypool.Delivered{c.r}}); got != c.want {
			t.Errorf("%+v: %v, want %v", c.r, got, c.want)
		}
	}
}

// Rule (the recheck compares the authors the write reaches): the preview
// an entry keeps holds the selected author's and the reached authors'
// events and their deletions, not a stranger's.
func TestPreviewKeepsOnlyReachedAuthors(t *testing.T) {
	alice, stranger := strings.Repeat("31", 32), strings.Repeat("32", 32)
	ann := signed(t, alice, graph.KindAnnouncement, nostr.Tags{{"d", "r"}})
	spam := signed(t, stranger, graph.KindAnnouncement, nostr.Tags{{"d", "r"}})
	del := signed(t, stranger, nostr.KindDeletion, nostr.Tags{{"e", spam.ID}})
	fp := map[string]string{"30617:" + ann.PubKey: ann.ID, "30617:" + spam.PubKey: spam.ID, "5:" + del.ID: del.ID}
	got := Preview(fp, []*nostr.Event{ann, spam, del}, graph.NewCoordinate(ann.PubKey, "r"))
	if len(got) != 1 || got["30617:"+ann.PubKey] != ann.ID {
		t.Fatalf("preview: %v", got)
	}
}
