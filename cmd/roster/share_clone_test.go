package main

import (
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// The share block after an invitation gives the invitee a way to clone
// without ngit: `git clone <first advertised clone URL>`, and the two lines
// to paste, clone then accept (inside the clone, which accept links).
func TestInvitationShareCarriesTheCloneAndAcceptLines(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100, nostr.Tag{"clone", "https://git.example/alice/my-repo.git", "https://mirror.example/my-repo.git"}))
	m := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
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
	w2 := newMutWorld(t, 1)
	w2.seed(alice.announce(t, w2.id, 100, nostr.Tag{"clone", "https://git.example/alice/my-repo.git"}))
	r := w2.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
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
	k := newTestKey(t)
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	dir, _ := initTestCheckout(t, "widget")
	env := homeEnv(t)
	env["ROSTER_SECRET_KEY"] = k.nsec
	r := invocation{Env: env, Dir: dir, Now: time.Unix(1750000000, 0)}.roster(t,
		append([]string{"repo", "init", "--clone", "https://git.example/widget.git"}, initRelayFlags(relays)...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	for _, want := range []string{"clone it with: git clone https://git.example/widget.git\n", "    git clone https://git.example/widget.git widget\n", "    cd widget && roster repo accept --repo nostr://"} {
		if !strings.Contains(r.Out, want) {
			t.Fatalf("repo init output lacks %q:\n%s", want, r.Out)
		}
	}
}
