package change_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

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
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Seams.AfterPublish = func() {
		w.Seed(clitest.Bob.Announce(t, w.Id, 1000, clitest.Role("M", clitest.Alice, "1000"), clitest.Role("m", clitest.Bob, "1000"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	}
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Out, `"code": "unverified"`) ||
		!strings.Contains(r.Out, "the maintainers resolved differ from the preview") {
		t.Fatalf("exit %d, want 6 naming the difference\n%s\n%s", r.Code, r.Out, r.Err)
	}
	// The replacement itself was published and read back: only the
	// comparison failed.
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Alice, clitest.Bob))
	if strings.Contains(r.Out, "did not return it on read-back") {
		t.Fatalf("read-back should have succeeded:\n%s", r.Out)
	}
}

// Rule (exit 6 reports what was published): a publish that is stored but
// not verified prints, in --json, the event id in the top-level
// `published` and each relay's answer in `relays`, as a success does, not
// only inside `error.details`.
func TestUnverifiedPublishJSONCarriesPublishedAndRelays(t *testing.T) {
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Seams.AfterPublish = func() {
		w.Seed(clitest.Bob.Announce(t, w.Id, 1000, clitest.Role("M", clitest.Alice, "1000"), clitest.Role("m", clitest.Bob, "1000"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	}
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("exit %d, want 6\n%s\n%s", r.Code, r.Out, r.Err)
	}
	stored := clitest.LatestAnnouncement(w.Relays[0], clitest.Alice, w.Id)
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
	if len(m.Relays) != 1 || m.Relays[0].URL != w.Relays[0].URL() || !m.Relays[0].OK || !m.Relays[0].ReadBack {
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
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	winner := clitest.Alice.Announce(t, w.Id, 5000, nostr.Tag{"name", "edited elsewhere"})
	w.Seams.AfterPublish = func() { w.Seed(winner) }
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	if r.Code != cmdutil.ExitUnverified || clitest.ErrorCode(r.Out) != "superseded" {
		t.Fatalf("exit %d %q, want 6 superseded\n%s\n%s", r.Code, clitest.ErrorCode(r.Out), r.Out, r.Err)
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
	if len(m.Error.Commands) == 0 || !strings.HasPrefix(m.Error.Commands[0], "roster repo edit --add-maintainer "+clitest.Bob.Npub()) {
		t.Fatalf("the first command is not the rerun of the change: %q", m.Error.Commands)
	}
	won := m.Error.Details.SupersededBy
	if len(m.Published) != 1 || len(m.Relays) != 2 || len(won) != 2 || won[w.Relays[0].URL()] != winner.ID || won[w.Relays[1].URL()] != winner.ID {
		t.Fatalf("published %v, relays %+v, superseded_by %v: want our id, both relays, each keeping %s", m.Published, m.Relays, won, winner.ID)
	}
	// Human output says the same on stderr.
	w.Seams.AfterPublish = func() { w.Seed(clitest.Alice.Announce(t, w.Id, 9000, nostr.Tag{"name", "edited again"})) }
	h := w.Run(clitest.Alice, clitest.Alice, 6000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	if h.Code != cmdutil.ExitUnverified || !strings.Contains(h.Err, "may have been superseded") || !strings.Contains(h.Err, "run: roster repo edit --add-maintainer "+clitest.Carol.Npub()) {
		t.Fatalf("exit %d\n%s", h.Code, h.Err)
	}
}

// Rule (a replacement must be datable after its base): an announcement of
// Alice's dated at the int64 maximum makes every replacement impossible; her
// next change is refused (exit 3, base-in-the-future) naming that event,
// instead of publishing one dated before 1970 that loses to it.
func TestBaseDatedAtTheLargestTimeRefusesTheChangeEndToEnd(t *testing.T) {
	w := clitest.NewMutWorld(t, 1)
	base := clitest.Alice.Announce(t, w.Id, math.MaxInt64)
	w.Seed(base)
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "base-in-the-future", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	e := m["error"].(map[string]any)
	if msg := e["message"].(string); !strings.Contains(msg, base.ID) || !strings.Contains(msg, "unusable") {
		t.Fatalf("message does not name %s and why:\n%s", base.ID, msg)
	}
}
