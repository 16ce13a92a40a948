package main

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// ownLockWait is the cache lock's open timeout in the test below: long
// enough that a command waiting for its own lock (bbolt locks the file for
// its opener, even within one process) could never finish within half of
// it, however loaded the machine.
const ownLockWait = 30 * time.Second

// Rule (a command never waits for its own cache lock): a workspace command
// holds the cache for its whole session, and the people and channels its
// human output names are read while it does; they are read through the
// session's open cache, not by opening the file again (which would wait out
// the lock's timeout and then name people from the relays alone). Every
// person is still named: on the first read (profiles asked of the relay,
// then cached) and on the next (the cache's fresh profiles alone).
func TestNoWorkspaceCommandWaitsForItsOwnCacheLock(t *testing.T) {
	t.Parallel()
	// The profiles are on the relay before the import reads them: a
	// profile asked for and absent stays absent for discovery.ProfileMaxAge.
	w := clitest.NewSWWorld(t)
	for sk, name := range map[string]string{clitest.SwOwnerSK: "owen", clitest.SwViewerSK: "vera"} {
		if err := w.Relay.PublishAs(clitest.PubOf(t, sk), clitest.NamedProfile(t, sk, name)); err != nil {
			t.Fatal(err)
		}
	}
	w.PublishLegacy()
	w.Homes[clitest.SwOwnerSK] = t.TempDir()
	owner := "owen (" + w.OwnerNpub() + ")"
	viewer := "vera (" + w.Npub(clitest.SwViewerSK) + ")"
	run := func(want []string, args ...string) {
		t.Helper()
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.SwOwnerSK, "ROSTER_HOME": w.Homes[clitest.SwOwnerSK]}
		start := time.Now()
		r := clitest.Invocation{Env: env, Seams: cmdutil.Seams{CacheWait: ownLockWait}}.Roster(t, append(args, "--relay", w.Relay.URL(), "--timeout", "5s")...)
		took := time.Since(start)
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, r.Code, r.Out, r.Err)
		}
		if took >= ownLockWait/2 {
			t.Fatalf("%v took %v: it waited for its own cache lock\n%s", args, took, r.Err)
		}
		for _, s := range want {
			if !strings.Contains(r.Out, s) {
				t.Fatalf("%v does not name %q:\n%s%s", args, s, r.Out, r.Err)
			}
		}
		if strings.Contains(r.Err, "locked") {
			t.Fatalf("%v warned of a locked cache:\n%s", args, r.Err)
		}
	}
	run([]string{owner}, "workspace", "import")
	run([]string{owner}, "workspace", "show")
	run([]string{viewer}, "workspace", "grant", w.Npub(clitest.SwViewerSK), "--role", "viewer")
	run([]string{owner, viewer}, "workspace", "show")
	run([]string{owner, viewer}, "workspace", "show")
	run([]string{owner}, "workspace", "list")
}
