package repo_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// docs/cache.md "Deletions on a plain read": a read asks each relay once
// for the repository, and the deletions of every author the cache already
// knows (by address) ride in that round; when the answer holds state events, the
// deletions of their authors' events (by address and by id) are asked in
// one more round, so a read resolves the state as a write does. Bob deleted
// his state, but this relay (like some public ones) still serves it: no
// read shows it, cold or warm. `repo health`, which decides, asks for every
// author's deletions in its deletion round even on a cold cache.
func TestRepoReadIsOneRoundAndLaterReadsCoverCachedAuthorsDeletions(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	rl := relays[0]
	evts := clitest.LeadShaped(t, "proj")
	bobState := evts[3]
	clitest.Publish(t, rl.URL(), evts...)
	stateAddr := graph.Coordinate{Kind: graph.KindState, Pubkey: clitest.Bob.Pk, Identifier: "proj"}.ATag()
	clitest.Publish(t, rl.URL(), clitest.Bob.Sign(t, graph.KindDeletion, 1004, nostr.Tag{"a", stateAddr}, nostr.Tag{"e", bobState.ID}))
	rl.Inject(bobState) // a relay that ignores NIP-09 keeps serving it

	env := clitest.TestEnv(t)
	args := []string{"--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL()}
	first, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, args...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("first read exit %d: %s", r.Code, r.Err)
	}
	// Discovery, the profiles (a cold cache has none) and the state
	// authors' deletions.
	if n := rl.ReqCount(); n != 3 || !clitest.IsProfileREQ(rl.Requests()[1]) && !clitest.IsProfileREQ(rl.Requests()[2]) {
		t.Fatalf("first read sent %d REQs, want 3 (discovery, profiles, the state authors' deletions): %v", n, rl.Requests())
	}
	if first["complete"] != true || first["state"] != nil {
		t.Fatalf("first read: complete %v, state %v (bob deleted it)", first["complete"], first["state"])
	}

	second, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: env}, args...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("second read exit %d: %s", r.Code, r.Err)
	}
	if n := rl.ReqCount(); n != 5 {
		t.Fatalf("second read sent %d REQs, want 2 (5 in all: the profiles are cached; the discovery, and the state authors' deletions by id)", n-3)
	}
	if second["state"] != nil {
		t.Fatalf("second read shows Bob's deleted state: %v", second["state"])
	}

	cold := clitest.TestEnv(t)
	h := clitest.Invocation{Env: cold}.Roster(t, append([]string{"repo", "health", "--json", "--timeout", "3s"}, args...)...)
	if h.Code == cmdutil.ExitIncomplete || h.Code == cmdutil.ExitFailure {
		t.Fatalf("health exit %d: %s%s", h.Code, h.Out, h.Err)
	}
	if n := rl.ReqCount(); n != 7 {
		t.Fatalf("health on a cold cache sent %d REQs, want 2 (the deletion round)", n-5)
	}
}
