package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (after publishing: read back, re-resolve and check the result equals
// the preview): every relay accepts and returns the replacement, but the
// repository re-resolved afterwards is not the one the preview showed (Bob
// accepted in the meantime, so he is confirmed, not invited). That is an
// unverified publish (exit 6), not a success.
func TestPublishWhoseReResolutionDiffersFromThePreviewIsExit6(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.seams.AfterPublish = func() {
		w.seed(bob.announce(t, w.id, 1000, role("M", alice, "1000"), role("m", bob, "1000"), maintainersTag(alice, bob)))
	}
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--json")
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Out, `"code": "unverified"`) ||
		!strings.Contains(r.Out, "the maintainers resolved differ from the preview") {
		t.Fatalf("exit %d, want 6 naming the difference\n%s\n%s", r.Code, r.Out, r.Err)
	}
	// The replacement itself was published and read back: only the
	// comparison failed.
	w.wantLatest(alice, role("M", alice), role("m", bob, "1000"), projection(alice, bob))
	if strings.Contains(r.Out, "did not return it on read-back") {
		t.Fatalf("read-back should have succeeded:\n%s", r.Out)
	}
}

// Rule (exit 6 reports what was published): a publish that is stored but
// not verified prints, in --json, the event id in the top-level
// `published` and each relay's answer in `relays`, as a success does, not
// only inside `error.details`.
func TestUnverifiedPublishJSONCarriesPublishedAndRelays(t *testing.T) {
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.seams.AfterPublish = func() {
		w.seed(bob.announce(t, w.id, 1000, role("M", alice, "1000"), role("m", bob, "1000"), maintainersTag(alice, bob)))
	}
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--json")
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("exit %d, want 6\n%s\n%s", r.Code, r.Out, r.Err)
	}
	stored := latestAnnouncement(w.relays[0], alice, w.id)
	var m struct {
		Published []string `json:"published"`
		Relays    []struct {
			URL      string `json:"url"`
			OK       bool   `json:"ok"`
			ReadBack bool   `json:"read_back"`
		} `json:"relays"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Published) != 1 || m.Published[0] != stored.ID {
		t.Fatalf("published %v, want [%s] (the event the relay stores)\n%s", m.Published, stored.ID, r.Out)
	}
	if len(m.Relays) != 1 || m.Relays[0].URL != w.relays[0].URL() || !m.Relays[0].OK || !m.Relays[0].ReadBack {
		t.Fatalf("relays %+v, want the relay's ok and read-back\n%s", m.Relays, r.Out)
	}
}

// Rule (after publishing, every relay's latest version of the coordinate
// must be the one published): another edit of Alice's announcement, dated
// later, reaches the relay between her publish and the read-back. The relay
// keeps that one, so her change may have been superseded: exit 6 naming the
// announcement that won, with the rerun of her change first among the
// commands, and `details.superseded_by` saying which relay keeps what.
func TestPublishSupersededByAnotherEditIsExit6NamingTheWinner(t *testing.T) {
	w := newMutWorld(t, 2)
	w.seed(alice.announce(t, w.id, 100))
	winner := alice.announce(t, w.id, 5000, nostr.Tag{"name", "edited elsewhere"})
	w.seams.AfterPublish = func() { w.seed(winner) }
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--json")
	if r.Code != cmdutil.ExitUnverified || errorCode(r.Out) != "superseded" {
		t.Fatalf("exit %d %q, want 6 superseded\n%s\n%s", r.Code, errorCode(r.Out), r.Out, r.Err)
	}
	var m struct {
		Published []string `json:"published"`
		Relays    []struct {
			URL string `json:"url"`
		} `json:"relays"`
		Error struct {
			Message string `json:"message"`
			Details struct {
				SupersededBy map[string]string `json:"superseded_by"`
			} `json:"details"`
			Commands []string `json:"commands"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Error.Message, "may have been superseded by another edit") || !strings.Contains(m.Error.Message, winner.ID) {
		t.Fatalf("message does not say the change may have been superseded, naming %s:\n%s", winner.ID, m.Error.Message)
	}
	if len(m.Error.Commands) == 0 || !strings.HasPrefix(m.Error.Commands[0], "roster repo edit --add-maintainer "+bob.npub()) {
		t.Fatalf("the first command is not the rerun of the change: %q", m.Error.Commands)
	}
	won := m.Error.Details.SupersededBy
	if len(m.Published) != 1 || len(m.Relays) != 2 || len(won) != 2 || won[w.relays[0].URL()] != winner.ID || won[w.relays[1].URL()] != winner.ID {
		t.Fatalf("published %v, relays %+v, superseded_by %v: want our id, both relays, each keeping %s", m.Published, m.Relays, won, winner.ID)
	}
	// Human output says the same on stderr.
	w.seams.AfterPublish = func() { w.seed(alice.announce(t, w.id, 9000, nostr.Tag{"name", "edited again"})) }
	h := w.run(alice, alice, 6000, "repo", "edit", "--add-maintainer", carol.npub())
	if h.Code != cmdutil.ExitUnverified || !strings.Contains(h.Err, "may have been superseded") || !strings.Contains(h.Err, "run: roster repo edit --add-maintainer "+carol.npub()) {
		t.Fatalf("exit %d\n%s", h.Code, h.Err)
	}
}

// Rule (a replacement must be datable after its base): an announcement of
// Alice's dated at the int64 maximum makes every replacement impossible; her
// next change is refused (exit 3, base-in-the-future) naming that event,
// instead of publishing one dated before 1970 that loses to it.
func TestBaseDatedAtTheLargestTimeRefusesTheChangeEndToEnd(t *testing.T) {
	w := newMutWorld(t, 1)
	base := alice.announce(t, w.id, math.MaxInt64)
	w.seed(base)
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "base-in-the-future", "repo", "edit", "--add-maintainer", bob.npub())
	e := m["error"].(map[string]any)
	if msg := e["message"].(string); !strings.Contains(msg, base.ID) || !strings.Contains(msg, "unusable") {
		t.Fatalf("message does not name %s and why:\n%s", base.ID, msg)
	}
}
