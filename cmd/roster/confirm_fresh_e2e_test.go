package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/hooks"
)

// freshFetchMarkers lists the markers under the home's data directory.
func freshFetchMarkers(t *testing.T, w *clitest.HookWorld) []string {
	t.Helper()
	var out []string
	root := filepath.Join(w.Env["ROSTER_HOME"], hooks.FreshFetchDir)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// maintainers.md: "Successful confirmation, including an immediately
// confirming add, invalidates state derived from the invitee's former
// component. No push or automatic kind 30618 publication is allowed until
// a fresh fetch verifies the accepted state against the local refs."
// After Bob's accept, his push with the relays unreachable is refused
// (exit from the hook, server untouched) naming the fresh fetch and the
// ways out; with the relays up and his refs matching the accepted state it
// goes through and the marker is gone; after that, a push with the relays
// down follows the budget rule again (unchecked, goes on).
func TestPushAfterConfirmationNeedsAFreshFetchOfTheAcceptedState(t *testing.T) {
	t.Parallel()
	w := clitest.NewHookWorld(t, clitest.Bob)
	bare := w.Server()
	w.MustGit(w.Dir, "commit", "-q", "--allow-empty", "-m", "accepted")
	accepted := strings.TrimSpace(w.MustGit(w.Dir, "rev-parse", "HEAD"))
	clitest.Publish(t, w.Relays[0].URL(),
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Alice.State(t, "proj", 1003, accepted))
	r := w.Roster(append([]string{"repo", "accept"}, clitest.RelayArgs(w.Relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("accept: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	markers := freshFetchMarkers(t, w)
	if len(markers) != 2 { // the accepted coordinate and bob's former one
		t.Fatalf("markers after accept: %v", markers)
	}
	for _, p := range markers {
		st, err := os.Stat(p)
		b, _ := os.ReadFile(p)
		if err != nil || st.Mode().Perm() != 0o600 || !strings.Contains(string(b), "the next push needs a fresh fetch") {
			t.Fatalf("marker %s: %v %v\n%s", p, err, st.Mode(), b)
		}
	}

	dead := devrelay.StartN(t, 1, devrelay.Options{})[0]
	dead.Stop()
	w.Install("--relay", dead.URL())
	out, err := w.Git(w.Dir, "push", "-q", "server", "main")
	if err == nil {
		t.Fatalf("the push after the confirmation went through with the relays down:\n%s", out)
	}
	t.Logf("refused push:\n%s", out)
	for _, want := range []string{"refusing to push: you were confirmed as a maintainer of " + clitest.Alice.Npub() + "/proj in this home",
		"a fresh, complete read of the accepted repository state", "no relay answered within 5s (" + dead.URL(),
		"Push again when the relays answer", "git push --no-verify"} {
		if !strings.Contains(out, want) {
			t.Fatalf("push output lacks %q:\n%s", want, out)
		}
	}
	if got := w.ServerHas(bare, "refs/heads/main"); got != "" {
		t.Fatalf("the server received main (%s)", got)
	}
	if len(freshFetchMarkers(t, w)) != 2 {
		t.Fatal("a refused push removed the markers")
	}

	w.Install(clitest.RelayArgs(w.Relays)...)
	if out, err := w.Git(w.Dir, "push", "-q", "server", "main"); err != nil {
		t.Fatalf("the push matching the accepted state was refused: %v\n%s", err, out)
	}
	if got := w.ServerHas(bare, "refs/heads/main"); got != accepted {
		t.Fatalf("server main is %q, want %s", got, accepted)
	}
	if m := freshFetchMarkers(t, w); len(m) != 0 {
		t.Fatalf("markers left after the verified push: %v", m)
	}

	w.Install("--relay", dead.URL())
	w.MustGit(w.Dir, "commit", "-q", "--allow-empty", "-m", "more")
	out, err = w.Git(w.Dir, "push", "-q", "server", "main")
	if err != nil || !strings.Contains(out, "roster hook: no relay answered within 5s ("+dead.URL()) || !strings.Contains(out, "the push is not checked") {
		t.Fatalf("the push after the verified one, relays down: %v\n%s", err, out)
	}
}
