package change_test

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// repo init writes a clone URL other people can fetch from: origin's
// scp-like URL (what GitHub shows) is announced as ssh://.
func TestRepoInitAnnouncesAnSCPOriginAsSSHURL(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	clitest.GitRun(t, dir, "remote", "add", "origin", "git@github.com:o/r.git")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	r := clitest.Invocation{Env: env, Dir: dir, Now: time.Unix(1750000000, 0)}.Roster(t, append([]string{"repo", "init", "--json"}, clitest.InitRelayFlags(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	stored := clitest.InitStoredAnnouncements(relays[0], k.Pubkey)
	if len(stored) != 1 {
		t.Fatalf("stored %d announcements", len(stored))
	}
	if c := stored[0].Tags.Find("clone"); len(c) != 2 || c[1] != "ssh://git@github.com/o/r.git" {
		t.Fatalf("clone tag %v, want [clone ssh://git@github.com/o/r.git]", c)
	}
}

// A local path as origin is a URL nobody else can fetch from: repo init
// refuses it (exit 2, nothing published) naming the fix, --clone https://…;
// given explicitly with --clone, the path is announced as file://.
func TestRepoInitRefusesALocalPathOriginAndWritesAnExplicitOneAsFileURL(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	bareDir := t.TempDir()
	clitest.GitRun(t, dir, "remote", "add", "origin", bareDir)
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	inv := clitest.Invocation{Env: env, Dir: dir, Now: time.Unix(1750000000, 0)}
	r := inv.Roster(t, append([]string{"repo", "init", "--json"}, clitest.InitRelayFlags(relays)...)...)
	if r.Code != cmdutil.ExitUsage {
		t.Fatalf("init with a path origin: exit %d, want %d\n%s%s", r.Code, cmdutil.ExitUsage, r.Out, r.Err)
	}
	var res clitest.InitJSON
	clitest.DecodeJSON(t, r, &res)
	if res.Error.Code != "local-clone-url" || len(res.Error.Commands) == 0 || !strings.Contains(strings.Join(res.Error.Commands, "\n"), "--clone https://") {
		t.Fatalf("error %+v does not name the --clone https:// fix", res.Error)
	}
	if n := len(clitest.InitStoredAnnouncements(relays[0], k.Pubkey)); n != 0 {
		t.Fatalf("a refused init published %d announcement(s)", n)
	}
	r = inv.Roster(t, append([]string{"repo", "init", "--json", "--clone", bareDir}, clitest.InitRelayFlags(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("init --clone <path>: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	stored := clitest.InitStoredAnnouncements(relays[0], k.Pubkey)
	if len(stored) != 1 {
		t.Fatalf("stored %d", len(stored))
	}
	if c := stored[0].Tags.Find("clone"); len(c) != 2 || c[1] != "file://"+bareDir {
		t.Fatalf("clone tag %v, want file://%s", c, bareDir)
	}
}

// repo edit --clone writes the scp-like form as ssh://.
func TestRepoEditCloneWritesSCPFormAsSSHURL(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--clone", "git@github.com:o/r.git")
	var best *nostr.Event
	for _, e := range w.Relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindAnnouncement}, Authors: []string{clitest.Alice.Pk}}) {
		if best == nil || graph.Newer(e, best) {
			best = e
		}
	}
	if c := best.Tags.Find("clone"); len(c) != 2 || c[1] != "ssh://git@github.com/o/r.git" {
		t.Fatalf("clone tag %v, want ssh://git@github.com/o/r.git", c)
	}
}
