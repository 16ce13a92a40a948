package repo_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (verification does not assume an identical filter returns fresh
// results): a relay that caches identical filters (as @nostr-relay does for
// a second; here for a minute, so the test cannot outrun it) answers the
// re-read after publishing with the answer it gave the recheck, which lacks
// the new announcement. The re-resolution includes what the relays returned
// by id, so repo edit is verified: exit 0, verified true.
func TestRepoEditIsVerifiedAgainstAFilterCachingRelay(t *testing.T) {
	w := clitest.HostileWorld(t, 2, devrelay.Misbehaviour{CacheFilters: time.Minute})
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	out := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if out["verified"] != true {
		t.Fatalf("verified %v, want true\n%v", out["verified"], out)
	}
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Alice, clitest.Bob))
}

// Rule (a write's evidence covers whom it names): the deletion round asks
// only about authors who can change the resolution, but a write also looks
// at its subject's own same-identifier repository, so the subject's
// deletions are asked too. Bob deleted the state of his own "my-repo"; the
// relay ignores NIP-09 and still serves it. Adding Bob must see the
// deletion, exactly as a dry run and a real edit did before the deletion
// round was narrowed.
func TestAWriteAsksForItsSubjectsDeletions(t *testing.T) {
	w := clitest.NewMutWorld(t, 1)
	bobState := clitest.Bob.State(t, w.Id, 50, "0123456789012345678901234567890123456789")
	w.Seed(clitest.Alice.Announce(t, w.Id, 100), clitest.Bob.Announce(t, w.Id, 40), bobState)
	stateAddr := graph.Coordinate{Kind: graph.KindState, Pubkey: clitest.Bob.Pk, Identifier: w.Id}.ATag()
	w.Seed(clitest.Bob.Sign(t, graph.KindDeletion, 60, nostr.Tag{"a", stateAddr}, nostr.Tag{"e", bobState.ID}))
	w.Relays[0].Inject(bobState)
	out := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run")
	if strings.Contains(fmt.Sprint(out["preview"]), bobState.ID) {
		t.Fatalf("the preview used Bob's deleted state %s:\n%v", bobState.ID, out["preview"])
	}
}

// Rule (no lost update against a relay that caches answers): a relay that
// answers a repeated filter from a cache serves, for a while after a write,
// the announcement the write replaced. A second change in that window must
// not build on the stale version: either a filter it has not seen (the
// authors asked by name now include Carol) brings the newer one, or this
// machine, which verified the newer one (its own publication), fails closed
// (exit 4, stale-relays) and publishes nothing; either way Bob's invitation
// survives Carol's. (TestAWriteThroughARelayServingTheReplacedVersionIsStale
// makes the relay serve only the old version.)
func TestASecondEditAgainstAFilterCachingRelayNeverDropsTheFirst(t *testing.T) {
	// Longer than the whole first write (whose last re-read comes at least
	// membership.CutWindow after its publish), so its answers are cached.
	w := clitest.HostileWorld(t, 1, devrelay.Misbehaviour{CacheFilters: 1500 * time.Millisecond})
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	deadline := time.Now().Add(10 * time.Second)
	for refused := 0; ; refused++ {
		before := w.StoredCount()
		r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json")
		if r.Code == cmdutil.ExitOK {
			break
		}
		if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"code": "stale-relays"`) || w.StoredCount() != before {
			t.Fatalf("exit %d while the relay serves a stale answer, want 4 stale-relays with nothing stored\n%s%s", r.Code, r.Out, r.Err)
		}
		if time.Now().After(deadline) {
			t.Fatal("the relay never served the newer version")
		}
	}
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Role("m", clitest.Carol, "1000"), clitest.Projection(clitest.Alice, clitest.Bob, clitest.Carol))
}
