package change_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (a command that stored anything says exactly what): the forced state
// is stored, then every relay refuses the announcement. The command exits
// 6 (never "nothing was published"), `published` lists the state event,
// `state_published` is set with the refs it changed, and the commands each
// preview before publishing; the relay holds the forced state and Alice's
// old announcement, and roster signed nothing further.
func TestForcedStateStoredAndAnnouncementRefusedSaysWhatWasPublished(t *testing.T) {
	t.Parallel()
	s := clitest.ForcedAddScene(t)
	w := s.W
	w.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(evt *nostr.Event) string {
		if evt.Kind == graph.KindAnnouncement {
			return "blocked: announcements are closed today"
		}
		return ""
	}})
	events := w.Relays[0].EventCount()
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force", "--json")
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("exit %d, want 6\n%s%s", r.Code, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatal(err, r.Out)
	}
	e := m["error"].(map[string]any)
	if e["code"] != "partly-published" || strings.Contains(e["message"].(string), "nothing was published") {
		t.Fatalf("error %v", e)
	}
	sp, _ := m["state_published"].(map[string]any)
	stored := s.Stored(clitest.Alice)
	var forced *nostr.Event
	for _, evt := range stored {
		if evt.CreatedAt > 110 {
			forced = evt
		}
	}
	if forced == nil || sp == nil || sp["event_id"] != forced.ID || !slices.Equal(clitest.ToStrings(m["published"]), []string{forced.ID}) {
		t.Fatalf("relay holds %v; published %v, state_published %v", forced, m["published"], sp)
	}
	// Against the state resolved before (Alice's, at the same main), the
	// forced state changed no ref.
	if !clitest.JsonEqual(sp["changes"], []any{}) {
		t.Fatalf("state_published.changes %v", sp["changes"])
	}
	if msg := e["message"].(string); !strings.Contains(msg, forced.ID) || !strings.Contains(msg, "the membership did not") {
		t.Fatalf("message %q", msg)
	}
	cmds := strings.Join(clitest.ToStrings(e["commands"]), "\n")
	if !strings.Contains(cmds, "--add-maintainer "+clitest.Bob.Npub()+" --force") {
		t.Fatalf("commands %s: the rerun of the change comes first", cmds)
	}
	// Two EVENTs were sent (the state, then the refused announcement);
	// Alice's announcement on the relay is still her first one.
	if got := w.Relays[0].EventCount() - events; got != 2 {
		t.Fatalf("%d EVENT(s) sent, want the state and the announcement only", got)
	}
	anns := w.Relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{clitest.Alice.Pk}})
	if len(anns) != 1 || anns[0].CreatedAt != 100 {
		t.Fatalf("Alice's announcements %v", anns)
	}

	// In words: the same, never "nothing was published".
	w.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(evt *nostr.Event) string {
		if evt.Kind == graph.KindAnnouncement {
			return "blocked: announcements are closed today"
		}
		return ""
	}})
	h := w.Run(clitest.Alice, clitest.Alice, 1001, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force")
	if h.Code != cmdutil.ExitUnverified || strings.Contains(h.Err, "nothing was published") || !strings.Contains(h.Err, "the membership did not") {
		t.Fatalf("human output after a stored state: %s", h.Err)
	}
}

// Rule (a state arriving after the forced state and before the
// verification): the command exits 6, `published` lists both events in
// order, `state_published` is set, and the message names the state event
// stored first as well as the event that now resolves.
func TestStateArrivingAfterTheForcedStateIsReportedWithBothEvents(t *testing.T) {
	t.Parallel()
	s := clitest.ForcedAddScene(t)
	w := s.W
	late := clitest.Bob.State(t, w.Id, 5000, s.MainB)
	w.Seams.AfterPublish = func() { w.Seed(late) }
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force", "--json")
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("exit %d, want 6\n%s%s", r.Code, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatal(err, r.Out)
	}
	sp, _ := m["state_published"].(map[string]any)
	pub := clitest.ToStrings(m["published"])
	if sp == nil || len(pub) != 2 || pub[0] != sp["event_id"] {
		t.Fatalf("published %v, state_published %v", pub, sp)
	}
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, late.ID) || !strings.Contains(msg, pub[0]) {
		t.Fatalf("message %q names neither the late state nor the forced one", msg)
	}
	// What a third reader resolves: Bob's late state.
	if st := s.ResolvedState(5001); st["event_id"] != late.ID {
		t.Fatalf("resolves %v", st)
	}
}
