package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

func signed(t *testing.T, kind int, d string, at int64) *nostr.Event {
	t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(at), Tags: nostr.Tags{{"d", d}}}
	if err := evt.Sign(strings.Repeat("31", 32)); err != nil {
		t.Fatal(err)
	}
	return evt
}

// Every event of a write is on disk, owner-only, before it is sent; the
// entries read back in order with their acknowledgements; a finished write
// leaves nothing behind.
func TestSignedEventsAreJournaledUntilTheWriteFinishes(t *testing.T) {
	d := Open(t.TempDir())
	state := signed(t, 30618, "r", 1700000000)
	ann := signed(t, 30617, "r", 1700000001)
	repo := "30617:" + ann.PubKey + ":r"
	err := d.Begin([]Entry{
		{Pipeline: PipelineMembership, Command: []string{"repo", "edit", "--remove", "npub1x", "--force"}, Repo: repo, Address: "30618:" + state.PubKey + ":r", Relays: []string{"ws://a", "ws://b"}, Event: state},
		{Pipeline: PipelineMembership, Command: []string{"repo", "edit", "--remove", "npub1x", "--force"}, Repo: repo, Address: repo, Relays: []string{"ws://a", "ws://b"}, Preview: map[string]string{"30617:" + ann.PubKey: strings.Repeat("0", 64)}, Event: ann},
	})
	if err != nil {
		t.Fatal(err)
	}
	for seq := range 2 {
		fi, err := os.Stat(d.path(state.ID, seq))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("entry %d: %v %v", seq, fi, err)
		}
	}
	if err := d.Acked(state.ID, 0, "ws://b"); err != nil {
		t.Fatal(err)
	}
	writes, problems, err := d.List()
	if err != nil || len(problems) != 0 || len(writes) != 1 {
		t.Fatalf("list: %v %v %v", writes, problems, err)
	}
	w := writes[0]
	if !w.Complete() || w.ID != state.ID || w.Entries[0].Event.ID != state.ID || w.Entries[1].Event.ID != ann.ID ||
		string(w.Entries[1].Event.Serialize()) != string(ann.Serialize()) || w.Entries[1].Event.Sig != ann.Sig {
		t.Fatalf("write read back as %+v", w)
	}
	if len(w.Entries[0].Acked) != 1 || w.Entries[0].Acked[0] != "ws://b" {
		t.Fatalf("acked %v", w.Entries[0].Acked)
	}
	if got, _ := d.Touching(repo); len(got) != 1 {
		t.Fatalf("touching %s: %v", repo, got)
	}
	if got, _ := d.Touching("30617:"+ann.PubKey+":other", "30617:"+ann.PubKey+":other"); len(got) != 0 {
		t.Fatalf("another coordinate is touched: %v", got)
	}
	if f, err := d.Find(state.ID[:10]); err != nil || f == nil || f.ID != state.ID {
		t.Fatalf("find by prefix: %v %v", f, err)
	}
	if err := d.Finish(state.ID); err != nil {
		t.Fatal(err)
	}
	if writes, _, _ := d.List(); len(writes) != 0 {
		t.Fatalf("finished write still listed: %v", writes)
	}
}

// A file that is not a validly signed entry is reported, never returned
// to be sent; a bigger file than the bound is not read whole.
func TestAJournalFileThatDoesNotVerifyIsNeverResent(t *testing.T) {
	d := Open(t.TempDir())
	evt := signed(t, 30617, "r", 1700000000)
	if err := d.Begin([]Entry{{Pipeline: PipelineMembership, Relays: []string{"ws://a"}, Event: evt}}); err != nil {
		t.Fatal(err)
	}
	p := d.path(evt.ID, 0)
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), `"d","r"`, `"d","s"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(d.Root, strings.Repeat("a", 64)+"-0.json")
	if err := os.WriteFile(big, make([]byte, MaxEntryBytes+10), 0o600); err != nil {
		t.Fatal(err)
	}
	writes, problems, err := d.List()
	if err != nil || len(writes) != 0 || len(problems) != 2 {
		t.Fatalf("writes %v problems %v err %v", writes, problems, err)
	}
}

// The journal holds at most MaxEntries events: a write past that is
// refused before anything is sent, and the relays, preview and command of
// an entry are bounded.
func TestTheJournalIsBounded(t *testing.T) {
	d := Open(t.TempDir())
	for i := range MaxEntries {
		if err := d.Begin([]Entry{{Relays: []string{"ws://a"}, Event: signed(t, 30617, "r", int64(1700000000+i))}}); err != nil {
			t.Fatal(err)
		}
	}
	err := d.Begin([]Entry{{Relays: []string{"ws://a"}, Event: signed(t, 30617, "r", 1600000000)}})
	if _, ok := err.(*FullError); !ok {
		t.Fatalf("a write past the bound: %v", err)
	}
	d2 := Open(t.TempDir())
	if err := d2.Begin([]Entry{{Relays: make([]string, MaxRelays+1), Event: signed(t, 30617, "r", 1)}}); err == nil {
		t.Fatal("an entry naming too many relays was written")
	}
	if err := d2.Begin([]Entry{{Command: make([]string, MaxCommandWords+1), Event: signed(t, 30617, "r", 1)}}); err == nil {
		t.Fatal("an entry with too long a command was written")
	}
}

// An event older than the acceptance window is never sent again.
func TestOnlyEventsInsideTheAcceptanceWindowAreResent(t *testing.T) {
	evt := signed(t, 30617, "r", 1700000000)
	at := evt.CreatedAt.Time()
	if Expired(evt, at.Add(AcceptanceWindow-time.Second)) || !Expired(evt, at.Add(AcceptanceWindow+time.Second)) {
		t.Fatal("the acceptance window is not 15 minutes")
	}
}
