package repo_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (no lost update against a relay serving the version a write
// replaced): after Alice invited Bob, the relay serves her previous
// announcement again and withholds the current one, to every filter. A
// second change on this machine, which verified the current one, fails
// closed (exit 4, stale-relays) and publishes nothing; once the relay
// serves the current version it goes through, and Bob's invitation
// survives Carol's.
func TestAWriteThroughARelayServingTheReplacedVersionIsStale(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	old := clitest.Alice.Announce(t, w.Id, 100)
	w.Seed(old)
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	current := map[string]bool{}
	for _, e := range w.Relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{clitest.Alice.Pk}}) {
		current[e.ID] = true
	}
	w.Relays[0].Inject(old)
	w.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool { return current[e.ID] }})
	before := w.StoredCount()
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"code": "stale-relays"`) || w.StoredCount() != before {
		t.Fatalf("exit %d while the relay serves the replaced version, want 4 stale-relays with nothing stored\n%s%s", r.Code, r.Out, r.Err)
	}
	w.Relays[0].SetMisbehaviour(devrelay.Misbehaviour{})
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Role("m", clitest.Carol, "1000"), clitest.Projection(clitest.Alice, clitest.Bob, clitest.Carol))
}
