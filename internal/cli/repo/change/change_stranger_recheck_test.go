package change_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/workspace/testkeys"
)

// Rule (a recheck compares what can change the resolution): between the
// preview and the recheck, 2,000 same-identifier announcements from
// unrelated keys appear on one of two relays. Nobody the change reaches
// wrote them, so the repository did not change: the edit goes through,
// verified, instead of failing concurrent-change with a message naming
// every stranger.
func TestStrangersAnnouncementsBetweenPreviewAndRecheckAreNoConcurrentChange(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	sybils := testkeys.Sybils(t, w.Id, 2000)
	w.Seams.BeforeRecheck = func() {
		for _, e := range sybils {
			w.Relays[1].Inject(e)
		}
	}
	if out := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub()); out["verified"] != true {
		t.Fatalf("verified %v, want true", out["verified"])
	}
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Alice, clitest.Bob))
}

// Rule (a concurrent-change message is bounded): more than MaxChangedShown
// changed events are said as their count and the first few.
func TestConcurrentChangeMessageIsBounded(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "50"), clitest.Role("m", clitest.Carol, "50"), clitest.Role("m", clitest.Dave, "50"),
		clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Carol, clitest.Dave)))
	people := []clitest.Person{clitest.Bob, clitest.Carol, clitest.Dave}
	w.Seams.BeforeRecheck = func() {
		for i, p := range people {
			w.Seed(p.Announce(t, w.Id, int64(200+i), clitest.Role("M", clitest.Alice, "50"), clitest.Role("m", p, "50")), p.State(t, w.Id, int64(300+i), strings.Repeat("ab", 20)))
		}
	}
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Erin.Npub(), "--json")
	var m struct {
		Error struct {
			Code, Message string
		}
	}
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil || m.Error.Code != "concurrent-change" {
		t.Fatalf("exit %d: %v\n%s", r.Code, err, r.Out)
	}
	if !strings.Contains(m.Error.Message, "6 events changed") || !strings.Contains(m.Error.Message, "and 1 more") {
		t.Fatalf("message: %s", m.Error.Message)
	}
}
