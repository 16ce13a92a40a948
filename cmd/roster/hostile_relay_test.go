package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
)

// hostileWorld is a mutWorld whose relays misbehave as m says.
func hostileWorld(t *testing.T, n int, m devrelay.Misbehaviour) *mutWorld {
	t.Helper()
	return &mutWorld{t: t, relays: devrelay.StartN(t, n, devrelay.Options{Misbehave: m}), id: "my-repo", home: testEnv(t), dir: t.TempDir()}
}

// Rule (verification does not assume an identical filter returns fresh
// results): a relay that caches identical filters (as @nostr-relay does for
// a second; here for a minute, so the test cannot outrun it) answers the
// re-read after publishing with the answer it gave the recheck, which lacks
// the new announcement. The re-resolution includes what the relays returned
// by id, so repo edit is verified: exit 0, verified true.
func TestRepoEditIsVerifiedAgainstAFilterCachingRelay(t *testing.T) {
	w := hostileWorld(t, 2, devrelay.Misbehaviour{CacheFilters: time.Minute})
	w.seed(alice.announce(t, w.id, 100))
	out := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	if out["verified"] != true {
		t.Fatalf("verified %v, want true\n%v", out["verified"], out)
	}
	w.wantLatest(alice, role("M", alice), role("m", bob, "1000"), projection(alice, bob))
}

// Rule (a write's evidence covers whom it names): the deletion round asks
// only about authors who can change the resolution, but a write also looks
// at its subject's own same-identifier repository, so the subject's
// deletions are asked too. Bob deleted the state of his own "my-repo"; the
// relay ignores NIP-09 and still serves it. Adding Bob must see the
// deletion, exactly as a dry run and a real edit did before the deletion
// round was narrowed.
func TestAWriteAsksForItsSubjectsDeletions(t *testing.T) {
	w := newMutWorld(t, 1)
	bobState := bob.state(t, w.id, 50, "0123456789012345678901234567890123456789")
	w.seed(alice.announce(t, w.id, 100), bob.announce(t, w.id, 40), bobState)
	stateAddr := graph.Coordinate{Kind: graph.KindState, Pubkey: bob.pk, Identifier: w.id}.ATag()
	w.seed(bob.sign(t, graph.KindDeletion, 60, nostr.Tag{"a", stateAddr}, nostr.Tag{"e", bobState.ID}))
	w.relays[0].Inject(bobState)
	out := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--dry-run")
	if strings.Contains(fmt.Sprint(out["preview"]), bobState.ID) {
		t.Fatalf("the preview used Bob's deleted state %s:\n%v", bobState.ID, out["preview"])
	}
}
