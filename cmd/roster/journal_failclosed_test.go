package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (the journal fails closed): a journal entry that cannot be read may
// be an unfinished write of the repository, so a change stops before
// signing (exit 1, journal-unreadable) naming the file and the command that
// forgets it, and the relays are untouched; a read says so on stderr and
// goes on; `roster pending` reports the
// file (never skipping it) with that command; once it is discarded the
// change goes ahead.
func TestAnUnreadableJournalEntryStopsAWriteUntilDiscarded(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	dir := filepath.Join(w.Home["ROSTER_HOME"], "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	id := strings.Repeat("ab", 32)
	corrupt := filepath.Join(dir, id+"-0.json")
	if err := os.WriteFile(corrupt, []byte(`{"version":1,"repo":"30617:`), 0o600); err != nil {
		t.Fatal(err)
	}
	before := len(w.Relays[0].Stored(nostr.Filter{}))

	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	var doc struct {
		Error struct {
			Code     string   `json:"code"`
			Message  string   `json:"message"`
			Commands []string `json:"commands"`
		} `json:"error"`
	}
	_ = json.Unmarshal([]byte(r.Out), &doc)
	if r.Code != cmdutil.ExitFailure || doc.Error.Code != "journal-unreadable" || !strings.Contains(doc.Error.Message, corrupt) ||
		!strings.Contains(doc.Error.Message, "roster pending discard "+id[:12]) || !strings.Contains(doc.Error.Message, "nothing was signed") {
		t.Fatalf("edit with an unreadable journal entry: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if got := len(w.Relays[0].Stored(nostr.Filter{})); got != before {
		t.Fatalf("the refused change reached the relay: %d events, %d before", got, before)
	}

	// A read says so and goes on.
	if read := w.Run(clitest.Alice, clitest.Alice, 1005, "repo"); read.Code != cmdutil.ExitOK || !strings.Contains(read.Err, corrupt) {
		t.Fatalf("roster repo with an unreadable journal entry: exit %d\n%s", read.Code, read.Err)
	}

	var listed struct {
		Unreadable []struct {
			File    string `json:"file"`
			Problem string `json:"problem"`
		} `json:"unreadable"`
	}
	l := w.PendingCmd(1010, "pending", "--json", "--offline")
	if err := json.Unmarshal([]byte(l.Out), &listed); err != nil || l.Code != cmdutil.ExitOK || len(listed.Unreadable) != 1 || listed.Unreadable[0].File != corrupt {
		t.Fatalf("roster pending --json: exit %d %v\n%s", l.Code, err, l.Out)
	}
	human := w.PendingCmd(1010, "pending", "--offline")
	if !strings.Contains(human.Out, "unreadable journal file (never sent): "+corrupt) || !strings.Contains(human.Out, "run: roster pending discard "+id[:12]) {
		t.Fatalf("roster pending:\n%s\n%s", human.Out, human.Err)
	}

	if res := w.PendingCmd(1015, "pending", "resume", id[:12]); res.Code != cmdutil.ExitFailure || !strings.Contains(res.Err, "cannot be resumed") ||
		!strings.Contains(res.Err, "roster pending discard "+id[:12]) {
		t.Fatalf("resume of an unreadable entry: exit %d\n%s\n%s", res.Code, res.Out, res.Err)
	}
	if d := w.PendingCmd(1020, "pending", "discard", id[:12]); d.Code != cmdutil.ExitOK || !strings.Contains(d.Out, corrupt) {
		t.Fatalf("discard: exit %d\n%s\n%s", d.Code, d.Out, d.Err)
	}
	if _, err := os.Stat(corrupt); !os.IsNotExist(err) {
		t.Fatalf("the discarded file is still there: %v", err)
	}
	if r := w.Run(clitest.Alice, clitest.Alice, 1030, "repo", "edit", "--add-maintainer", clitest.Bob.Npub()); r.Code != cmdutil.ExitOK {
		t.Fatalf("edit once the journal reads: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
}

// Rule (the journal fails closed): `repo state publish` whose journal
// holds an entry it cannot read, naming the repository, signs nothing
// (exit 1, journal-unreadable) and names the file; the relay is untouched.
func TestStatePublishStopsBeforeSigningWhenItsJournalCannotBeRead(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	s.Clone.Commit("next")
	s.Clone.Git("push", "-q", s.CloneURL, "main")
	dir := filepath.Join(s.W.Home["ROSTER_HOME"], "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// Another version's entry of this repository: readable JSON, not an
	// entry this roster reads.
	bad := filepath.Join(dir, strings.Repeat("ef", 32)+"-0.json")
	if err := os.WriteFile(bad, []byte(`{"version":2,"repo":"`+clitest.Alice.Coord(s.W.Id).ATag()+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	m := s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitFailure, "journal-unreadable", "repo", "state", "publish")
	if msg, _ := m["error"].(map[string]any)["message"].(string); !strings.Contains(msg, bad) || !strings.Contains(msg, "nothing was signed") {
		t.Fatalf("message: %v", m["error"])
	}
	if n := len(s.StoredStates()); n != 1 {
		t.Fatalf("the relay stores %d state events, want the seeded one", n)
	}
}
