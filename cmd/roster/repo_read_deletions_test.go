package main

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
)

// docs/cache.md "Deletions on a plain read": a read stays one round, and the
// deletions of every author the cache already knows ride in that round. Bob
// deleted his state, but this relay (like some public ones) still serves
// it. The first read asks only for the selected coordinate's deletions; it
// caches Bob's events, so the next read, still one REQ, also asks for
// Bob's deletions and stops showing his deleted state. `repo health`, which
// decides, asks for every author's deletions in one more round even on a
// cold cache.
func TestRepoReadIsOneRoundAndLaterReadsCoverCachedAuthorsDeletions(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	rl := relays[0]
	evts := leadShaped(t, "proj")
	bobState := evts[3]
	publish(t, rl.URL(), evts...)
	stateAddr := graph.Coordinate{Kind: graph.KindState, Pubkey: bob.pk, Identifier: "proj"}.ATag()
	publish(t, rl.URL(), bob.sign(t, graph.KindDeletion, 1004, nostr.Tag{"a", stateAddr}, nostr.Tag{"e", bobState.ID}))
	rl.Inject(bobState) // a relay that ignores NIP-09 keeps serving it

	env := testEnv(t)
	args := []string{"--repo", alice.naddr("proj"), "--relay", rl.URL()}
	first, r := repoJSONRun(t, invocation{Env: env}, args...)
	if r.Code != exitOK {
		t.Fatalf("first read exit %d: %s", r.Code, r.Err)
	}
	// Discovery, then the people's profiles (a cold cache has none).
	if n := rl.ReqCount(); n != 2 || !isProfileREQ(rl.Requests()[1]) {
		t.Fatalf("first read sent %d REQs, want 2 (discovery, profiles): %v", n, rl.Requests())
	}
	if first["complete"] != true {
		t.Fatalf("first read not complete: %v", first["relays"])
	}

	second, r := repoJSONRun(t, invocation{Env: env}, args...)
	if r.Code != exitOK {
		t.Fatalf("second read exit %d: %s", r.Code, r.Err)
	}
	if n := rl.ReqCount(); n != 3 {
		t.Fatalf("second read sent %d REQs, want 1 (3 in all: the profiles are cached)", n-2)
	}
	if second["state"] != nil {
		t.Fatalf("second read still shows Bob's deleted state: %v", second["state"])
	}

	cold := testEnv(t)
	h := invocation{Env: cold}.roster(t, append([]string{"repo", "health", "--json", "--timeout", "3s"}, args...)...)
	if h.Code == exitIncomplete || h.Code == exitFailure {
		t.Fatalf("health exit %d: %s%s", h.Code, h.Out, h.Err)
	}
	if n := rl.ReqCount(); n != 5 {
		t.Fatalf("health on a cold cache sent %d REQs, want 2 (the deletion round)", n-3)
	}
}
