package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/hooks"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (the pre-push hook contract, githooks(5): pre-push reads
// `<local ref> <local oid> <remote ref> <remote oid>` lines): the guard
// judges each pushed ref, not HEAD. A maintainer the lead removed is
// refused a push of a branch that is not checked out.
func TestHooksPrePushRefusesARemovedMaintainersPushOfANonHEADBranch(t *testing.T) {
	t.Parallel()
	w := newHookWorld(t, carol, removal(t)...)
	bare := w.server()
	w.mustGit(w.dir, "branch", "feature")
	w.install(relayArgs(w.relays)...)
	out, err := w.git(w.dir, "push", "-q", "server", "feature")
	if err == nil || !strings.Contains(out, "refusing to push: "+alice.npub()+" no longer lists you") {
		t.Fatalf("the push of feature was not refused: %v\n%s", err, out)
	}
	if got := w.serverHas(bare, "refs/heads/feature"); got != "" {
		t.Fatalf("the server received feature (%s)", got)
	}
}

// Rule (the pre-push guard judges each pushed ref, and a deletion as a
// deletion): a just-confirmed maintainer whose checked-out main descends
// from the accepted state is still refused a push of another local branch
// onto main that does not, and the deletion of main; the server keeps the
// accepted main.
func TestHooksPrePushJudgesEachPushedRefAndDeletions(t *testing.T) {
	t.Parallel()
	w := newHookWorld(t, bob)
	bare := w.server()
	w.mustGit(w.dir, "commit", "-q", "--allow-empty", "-m", "accepted")
	accepted := strings.TrimSpace(w.mustGit(w.dir, "rev-parse", "HEAD"))
	w.mustGit(w.dir, "push", "-q", "server", "main")
	w.mustGit(w.dir, "checkout", "-q", "-b", "side", "HEAD~1")
	w.mustGit(w.dir, "commit", "-q", "--allow-empty", "-m", "bob's own line")
	w.mustGit(w.dir, "checkout", "-q", "main") // HEAD is the accepted main
	publish(t, w.relays[0].URL(),
		alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), maintainersTag(alice, bob)),
		bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
		alice.state(t, "proj", 1003, accepted))
	w.install(relayArgs(w.relays)...)
	out, err := w.git(w.dir, "push", "-q", "--force", "server", "side:main")
	if err == nil || !strings.Contains(out, "refs/heads/main: ") || !strings.Contains(out, "does not contain "+accepted[:12]) {
		t.Fatalf("side:main was not refused: %v\n%s", err, out)
	}
	out, err = w.git(w.dir, "push", "-q", "server", ":main")
	if err == nil || !strings.Contains(out, "refs/heads/main: the push deletes it") {
		t.Fatalf("the deletion of main was not refused as a deletion: %v\n%s", err, out)
	}
	if got := w.serverHas(bare, "refs/heads/main"); got != accepted {
		t.Fatalf("server main is %q, want the accepted %s", got, accepted)
	}
}

// Rule (the installed hook records the absolute path of the roster that
// installed it, and fails the push naming it when that is gone and no
// roster is on PATH, as under a GUI Git client's minimal PATH): the push
// is refused, not silently unchecked.
func TestHooksPrePushFailsNamingTheRosterItExpectedWhenMissing(t *testing.T) {
	t.Parallel()
	w := newHookWorld(t, bob, leadShaped(t, "proj")...)
	bare := w.server()
	w.install(relayArgs(w.relays)...)
	hook := filepath.Join(w.dir, ".git", "hooks", "pre-push")
	content, err := os.ReadFile(hook)
	if err != nil {
		t.Fatal(err)
	}
	cfg, ok := hooks.ParseConfig(content)
	if exe, _ := os.Executable(); !ok || !filepath.IsAbs(cfg.Binary) || cfg.Binary != exe {
		t.Fatalf("the hook records %q, want this binary's absolute path %q", cfg.Binary, exe)
	}
	gone := filepath.Join(t.TempDir(), "moved-away", "roster")
	re := regexp.MustCompile(`(?m)^roster=.*$`)
	if err := os.WriteFile(hook, re.ReplaceAll(content, []byte("roster='"+gone+"'")), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := w.git(w.dir, "push", "-q", "server", "main")
	if err == nil || !strings.Contains(out, "refusing the push") || !strings.Contains(out, gone) {
		t.Fatalf("push with roster missing: %v\n%s", err, out)
	}
	if got := w.serverHas(bare, "refs/heads/main"); got != "" {
		t.Fatalf("the server received main (%s)", got)
	}
}

// Rule (docs/usage.md: a push waits at most the guard's --timeout for
// roster): a silent relay beside a locked cache (another roster holds it)
// does not make the guard overrun its budget; the push goes on, said so.
func TestHooksPrePushStaysWithinItsBudgetWithASilentRelayAndALockedCache(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 2, devrelay.Options{})
	for _, r := range relays {
		publish(t, r.URL(), removal(t)...)
	}
	relays[1].SetSilent(true)
	env := withKey(testEnv(t), carol)
	c, err := cache.Open(env["ROSTER_HOME"])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dir := newGitWork(t)
	dir.commit("base")
	dir.git("config", "nostr.repo", alice.naddr("proj"))
	head := dir.rev("HEAD")
	const budget = 1500 * time.Millisecond
	start := time.Now()
	r := invocation{Env: env, Dir: dir.dir, Stdin: "refs/heads/main " + head + " refs/heads/main " + strings.Repeat("0", 40) + "\n"}.roster(t,
		"--timeout", budget.String(), "--relay", relays[0].URL(), "--relay", relays[1].URL(), "hooks", "run", "pre-push", "--", "server", "file:///srv")
	took := time.Since(start)
	if took > budget+500*time.Millisecond {
		t.Fatalf("the guard took %s, budget %s:\n%s", took, budget, r.Err)
	}
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "not a Nostr publication") {
		t.Fatalf("exit %d after %s:\n%s", r.Code, took, r.Err)
	}
}
