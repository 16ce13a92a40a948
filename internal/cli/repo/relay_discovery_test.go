package repo_test

import (
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (relay sources): relays come from --relay, else ROSTER_RELAYS/config
// plus coordinate hints plus the selected announcement's relays tag;
// the --relay flag: "relay URL (repeatable; replaces relay discovery)". With
// --relay only the named relay is asked: not ROSTER_RELAYS, not the naddr's
// hint, not the announced relays. Without it, all three sources are asked,
// each exactly once.
func TestRelayFlagReplacesRelayDiscovery(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 4, devrelay.Options{})
	flag, env, hint, announced := relays[0], relays[1], relays[2], relays[3]
	ann := clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), nostr.Tag{"relays", announced.URL()}, clitest.MaintainersTag(clitest.Alice))
	for _, r := range relays {
		clitest.Publish(t, r.URL(), ann)
	}
	naddr := gitstate.EncodeNaddr(clitest.Alice.Coord("proj"), []string{hint.URL()})
	counts := func() []int {
		return []int{flag.ReqCount(), env.ReqCount(), hint.ReqCount(), announced.ReqCount()}
	}

	e := clitest.TestEnv(t)
	e["ROSTER_RELAYS"] = env.URL()
	m, r := clitest.RepoJSONRun(t, clitest.Invocation{Env: e}, "--repo", naddr, "--relay", flag.URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if got := counts(); got[0] != 2 || got[1] != 0 || got[2] != 0 || got[3] != 0 {
		t.Fatalf("REQs [flag env hint announced] = %v, want [2 0 0 0] (discovery, profiles): --relay replaces discovery", got)
	}
	if st := clitest.RelayStatuses(t, m["relays"]); len(st) != 1 || st[flag.URL()] != "ok" {
		t.Fatalf("relays reported %v, want only %s", st, flag.URL())
	}

	e = clitest.TestEnv(t)
	e["ROSTER_RELAYS"] = env.URL()
	m, r = clitest.RepoJSONRun(t, clitest.Invocation{Env: e}, "--repo", naddr)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	// Profiles are asked of the relays of the first round (env and hint).
	if got := counts(); got[0] != 2 || got[1] != 2 || got[2] != 2 || got[3] != 1 {
		t.Fatalf("REQs [flag env hint announced] = %v, want [2 2 2 1]: ROSTER_RELAYS, the hint and the announced relay once each, and profiles", got)
	}
	if st := clitest.RelayStatuses(t, m["relays"]); len(st) != 3 || m["complete"] != true {
		t.Fatalf("relays reported %v complete %v, want env, hint and announced", st, m["complete"])
	}
}
