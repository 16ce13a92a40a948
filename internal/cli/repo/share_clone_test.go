package repo_test

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// The share block after an invitation gives the invitee a way to clone
// without ngit: `git clone <first advertised clone URL>`, and the two lines
// to paste, clone then accept (inside the clone, which accept links).
func TestInvitationShareCarriesTheCloneAndAcceptLines(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100, nostr.Tag{"clone", "https://git.example/alice/my-repo.git", "https://mirror.example/my-repo.git"}))
	m := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	share, _ := m["share"].(map[string]any)
	if share == nil || share["clone_url"] != "https://git.example/alice/my-repo.git" {
		t.Fatalf("share %v does not carry the first advertised clone URL", m["share"])
	}
	paste, _ := share["paste"].([]any)
	if len(paste) != 2 || paste[0] != "git clone https://git.example/alice/my-repo.git my-repo" ||
		paste[1] != "cd my-repo && "+share["accept_command"].(string) {
		t.Fatalf("paste lines %q, want clone then accept in the clone", paste)
	}

	// The same lines on a terminal.
	w2 := clitest.NewMutWorld(t, 1)
	w2.Seed(clitest.Alice.Announce(t, w2.Id, 100, nostr.Tag{"clone", "https://git.example/alice/my-repo.git"}))
	r := w2.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	for _, want := range []string{"  git clone https://git.example/alice/my-repo.git my-repo\n", "  cd my-repo && roster repo accept --repo nostr://"} {
		if !strings.Contains(r.Out, want) {
			t.Fatalf("human output lacks %q:\n%s", want, r.Out)
		}
	}
}

// repo init's share block names the clone URL it announced and the lines
// an invitee pastes.
func TestRepoInitShareCarriesTheCloneLine(t *testing.T) {
	t.Parallel()
	k := clitest.NewTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, _ := clitest.InitTestCheckout(t, "widget")
	env := clitest.HomeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.Nsec
	r := clitest.Invocation{Env: env, Dir: dir, Now: time.Unix(1750000000, 0)}.Roster(t,
		append([]string{"repo", "init", "--clone", "https://git.example/widget.git"}, clitest.InitRelayFlags(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	for _, want := range []string{"clone it with: git clone https://git.example/widget.git\n", "    git clone https://git.example/widget.git widget\n", "    cd widget && roster repo accept --repo nostr://"} {
		if !strings.Contains(r.Out, want) {
			t.Fatalf("repo init output lacks %q:\n%s", want, r.Out)
		}
	}
}
