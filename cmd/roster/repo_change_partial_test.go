package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// forcedAddScene: Bob acknowledges Alice and his newer state differs, so
// Alice's add needs --force from her checkout.
func forcedAddScene(t *testing.T) *joinScene {
	s := newJoinScene(t)
	s.w.seed(bob.announce(t, s.w.id, 200, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)), bob.state(t, s.w.id, 300, s.mainB))
	s.w.dir = s.alice.dir
	return s
}

// Rule (a command that stored anything says exactly what): the forced state
// is stored, then every relay refuses the announcement. The command exits
// 6 (never "nothing was published"), `published` lists the state event,
// `state_published` is set with the refs it changed, and the commands each
// preview before publishing; the relay holds the forced state and Alice's
// old announcement, and roster signed nothing further.
func TestForcedStateStoredAndAnnouncementRefusedSaysWhatWasPublished(t *testing.T) {
	t.Parallel()
	s := forcedAddScene(t)
	w := s.w
	w.relays[0].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(evt *nostr.Event) string {
		if evt.Kind == graph.KindAnnouncement {
			return "blocked: announcements are closed today"
		}
		return ""
	}})
	events := w.relays[0].EventCount()
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--force", "--json")
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
	stored := s.stored(alice)
	var forced *nostr.Event
	for _, evt := range stored {
		if evt.CreatedAt > 110 {
			forced = evt
		}
	}
	if forced == nil || sp == nil || sp["event_id"] != forced.ID || !slices.Equal(toStrings(m["published"]), []string{forced.ID}) {
		t.Fatalf("relay holds %v; published %v, state_published %v", forced, m["published"], sp)
	}
	// Against the state resolved before (Alice's, at the same main), the
	// forced state changed no ref.
	if !jsonEqual(sp["changes"], []any{}) {
		t.Fatalf("state_published.changes %v", sp["changes"])
	}
	if msg := e["message"].(string); !strings.Contains(msg, forced.ID) || !strings.Contains(msg, "the membership did not") {
		t.Fatalf("message %q", msg)
	}
	cmds := strings.Join(toStrings(e["commands"]), "\n")
	if !strings.Contains(cmds, "--add-maintainer "+bob.npub()+" --force") {
		t.Fatalf("commands %s: the rerun of the change comes first", cmds)
	}
	// Two EVENTs were sent (the state, then the refused announcement);
	// Alice's announcement on the relay is still her first one.
	if got := w.relays[0].EventCount() - events; got != 2 {
		t.Fatalf("%d EVENT(s) sent, want the state and the announcement only", got)
	}
	anns := w.relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{alice.pk}})
	if len(anns) != 1 || anns[0].CreatedAt != 100 {
		t.Fatalf("Alice's announcements %v", anns)
	}

	// In words: the same, never "nothing was published".
	w.relays[0].SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(evt *nostr.Event) string {
		if evt.Kind == graph.KindAnnouncement {
			return "blocked: announcements are closed today"
		}
		return ""
	}})
	h := w.run(alice, alice, 1001, "repo", "edit", "--add-maintainer", bob.npub(), "--force")
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
	s := forcedAddScene(t)
	w := s.w
	late := bob.state(t, w.id, 5000, s.mainB)
	w.seams.AfterPublish = func() { w.seed(late) }
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--force", "--json")
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("exit %d, want 6\n%s%s", r.Code, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatal(err, r.Out)
	}
	sp, _ := m["state_published"].(map[string]any)
	pub := toStrings(m["published"])
	if sp == nil || len(pub) != 2 || pub[0] != sp["event_id"] {
		t.Fatalf("published %v, state_published %v", pub, sp)
	}
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, late.ID) || !strings.Contains(msg, pub[0]) {
		t.Fatalf("message %q names neither the late state nor the forced one", msg)
	}
	// What a third reader resolves: Bob's late state.
	if st := s.resolvedState(5001); st["event_id"] != late.ID {
		t.Fatalf("resolves %v", st)
	}
}
