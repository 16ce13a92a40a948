package repo_test

import (
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// bbolt locks the cache file while it is open. A read waiting on slow relays
// must not hold that lock, or a second roster process (another CI job, a
// second terminal) would fail with cache-locked; the read still caches what
// it fetched.
func TestRepoDoesNotHoldTheCacheLockWhileWaitingOnRelays(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	relays[0].SetSlow(time.Second)
	env := clitest.TestEnv(t)
	done := make(chan clitest.Result, 1)
	go func() {
		done <- clitest.Invocation{Env: env}.Roster(t, "repo", "--json", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	}()
	// Wait until the read's REQ reached the relay: it is now waiting on it.
	deadline := time.Now().Add(10 * time.Second)
	for relays[0].ReqCount() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the read never asked the relay")
		}
		time.Sleep(5 * time.Millisecond)
	}
	c, err := cache.OpenWith(env["ROSTER_HOME"], cache.Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("the cache is locked while roster waits on a relay: %v", err)
	}
	c.Close()
	r := <-done
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	c, err = cache.Open(env["ROSTER_HOME"])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if info, err := c.Info(); err != nil || info.Events == 0 {
		t.Fatalf("the read cached nothing: %+v, %v", info, err)
	}
}
