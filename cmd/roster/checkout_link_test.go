package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Accept links the checkout: run with --repo in a checkout that selects no
// coordinate, `repo accept` sets git config nostr.repo to the accepted
// coordinate (its naddr carrying a relay hint), says so in one line, and
// `roster repo` there then works with no --repo and no --relay.
func TestAcceptLinksACheckoutThatSelectsNoCoordinate(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	w.Dir = clitest.GitCheckout(t)

	r := w.Run(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("accept: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if n := strings.Count(r.Out, "this checkout is now linked to the repository: git config nostr.repo naddr1"); n != 1 {
		t.Fatalf("accept said %d times that it linked the checkout:\n%s", n, r.Out)
	}
	co, err := gitstate.Open(w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := co.ResolveCoordinate("")
	if err != nil {
		t.Fatalf("the checkout selects nothing after accept: %v", err)
	}
	if sel.Source != gitstate.SourceGitConfig || sel.Coordinate != clitest.Alice.Coord(w.Id) || len(sel.Relays) != 1 || sel.Relays[0] != w.Relays[0].URL() {
		t.Fatalf("nostr.repo selects %+v, want %v with the relay %s as hint", sel, clitest.Alice.Coord(w.Id), w.Relays[0].URL())
	}
	inv := clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Bob), Dir: w.Dir, Now: time.Unix(2100, 0)}
	if r := inv.Roster(t, "repo", "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("roster repo in the linked checkout (no --repo, no --relay): exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// Accept never re-roots a checkout: in one that selects a different
// coordinate it changes nothing and prints the `git config nostr.repo …`
// command for the user to run.
func TestAcceptLeavesACheckoutSelectingAnotherCoordinate(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	other := gitstate.EncodeNaddr(clitest.Carol.Coord("elsewhere"), nil)
	dir, co := clitest.CheckoutSelecting(t, other)
	w.Dir = dir

	m := w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	if m["linked"] != nil {
		t.Fatalf("linked = %v in a checkout that selects another coordinate", m["linked"])
	}
	if got := co.NostrRepo(); len(got) != 1 || got[0] != other {
		t.Fatalf("nostr.repo = %v, want it left at %s", got, other)
	}
	want := "git config nostr.repo " + gitstate.EncodeNaddr(clitest.Alice.Coord(w.Id), []string{w.Relays[0].URL()})
	guidance, _ := json.Marshal(m["guidance"])
	if !strings.Contains(string(guidance), want) {
		t.Fatalf("guidance does not carry %q:\n%s", want, guidance)
	}
}

// Hooks run without --repo, so in a checkout that names no repository they
// would check nothing: `roster hooks install` there refuses (exit 2),
// writes no hook, and names the command that links the checkout.
func TestHooksInstallRefusesACheckoutWithNoCoordinate(t *testing.T) {
	t.Parallel()
	dir := clitest.GitCheckout(t)
	inv := clitest.Invocation{Env: clitest.HomeEnv(t), Dir: dir}
	r := inv.Roster(t, "hooks", "install", "--json")
	if r.Code != cmdutil.ExitUsage {
		t.Fatalf("hooks install: exit %d, want %d\n%s%s", r.Code, cmdutil.ExitUsage, r.Out, r.Err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Out)
	}
	e := m["error"].(map[string]any)
	cmds, _ := json.Marshal(e["commands"])
	if e["code"] != "no-coordinate" || !strings.Contains(string(cmds), "git config nostr.repo") {
		t.Fatalf("error %v does not name the linking command", e)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "hooks", "pre-push")); err == nil {
		t.Fatal("a pre-push hook was written in a checkout with no coordinate")
	}
}
