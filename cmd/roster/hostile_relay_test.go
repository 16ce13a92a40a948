package main

import (
	"testing"
	"time"

	"github.com/roster-cli/roster/devrelay"
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
