package hooks_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

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
	w := clitest.NewHookWorld(t, clitest.Carol, clitest.Removal(t)...)
	bare := w.Server()
	w.MustGit(w.Dir, "branch", "feature")
	w.Install(clitest.RelayArgs(w.Relays)...)
	out, err := w.Git(w.Dir, "push", "-q", "server", "feature")
	if err == nil || !strings.Contains(out, "refusing to push: "+clitest.Alice.Npub()+" no longer lists you") {
		t.Fatalf("the push of feature was not refused: %v\n%s", err, out)
	}
	if got := w.ServerHas(bare, "refs/heads/feature"); got != "" {
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
	w := clitest.NewHookWorld(t, clitest.Bob)
	bare := w.Server()
	w.MustGit(w.Dir, "commit", "-q", "--allow-empty", "-m", "accepted")
	accepted := strings.TrimSpace(w.MustGit(w.Dir, "rev-parse", "HEAD"))
	w.MustGit(w.Dir, "push", "-q", "server", "main")
	w.MustGit(w.Dir, "checkout", "-q", "-b", "side", "HEAD~1")
	w.MustGit(w.Dir, "commit", "-q", "--allow-empty", "-m", "bob's own line")
	w.MustGit(w.Dir, "checkout", "-q", "main") // HEAD is the accepted main
	clitest.Publish(t, w.Relays[0].URL(),
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Alice.State(t, "proj", 1003, accepted))
	w.Install(clitest.RelayArgs(w.Relays)...)
	out, err := w.Git(w.Dir, "push", "-q", "--force", "server", "side:main")
	if err == nil || !strings.Contains(out, "refs/heads/main: ") || !strings.Contains(out, "does not contain "+accepted[:12]) {
		t.Fatalf("side:main was not refused: %v\n%s", err, out)
	}
	out, err = w.Git(w.Dir, "push", "-q", "server", ":main")
	if err == nil || !strings.Contains(out, "refs/heads/main: the push deletes it") {
		t.Fatalf("the deletion of main was not refused as a deletion: %v\n%s", err, out)
	}
	if got := w.ServerHas(bare, "refs/heads/main"); got != accepted {
		t.Fatalf("server main is %q, want the accepted %s", got, accepted)
	}
}

// Rule (the installed hook records the absolute path of the roster that
// installed it, and fails the push naming it when that is gone and no
// roster is on PATH, as under a GUI Git client's minimal PATH): the push
// is refused, not silently unchecked.
func TestHooksPrePushFailsNamingTheRosterItExpectedWhenMissing(t *testing.T) {
	t.Parallel()
	w := clitest.NewHookWorld(t, clitest.Bob, clitest.LeadShaped(t, "proj")...)
	bare := w.Server()
	w.Install(clitest.RelayArgs(w.Relays)...)
	hook := filepath.Join(w.Dir, ".git", "hooks", "pre-push")
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
	out, err := w.Git(w.Dir, "push", "-q", "server", "main")
	if err == nil || !strings.Contains(out, "refusing the push") || !strings.Contains(out, gone) {
		t.Fatalf("push with roster missing: %v\n%s", err, out)
	}
	if got := w.ServerHas(bare, "refs/heads/main"); got != "" {
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
		clitest.Publish(t, r.URL(), clitest.Removal(t)...)
	}
	relays[1].SetSilent(true)
	env := clitest.WithKey(clitest.TestEnv(t), clitest.Carol)
	c, err := cache.Open(env["ROSTER_HOME"])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dir := clitest.NewGitWork(t)
	dir.Commit("base")
	dir.Git("config", "nostr.repo", clitest.Alice.Naddr("proj"))
	head := dir.Rev("HEAD")
	const budget = 1500 * time.Millisecond
	start := time.Now()
	r := clitest.Invocation{Env: env, Dir: dir.Dir, Stdin: "refs/heads/main " + head + " refs/heads/main " + strings.Repeat("0", 40) + "\n"}.Roster(t,
		"--timeout", budget.String(), "--relay", relays[0].URL(), "--relay", relays[1].URL(), "hooks", "run", "pre-push", "--", "server", "file:///srv")
	took := time.Since(start)
	if took > budget+500*time.Millisecond {
		t.Fatalf("the guard took %s, budget %s:\n%s", took, budget, r.Err)
	}
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "not a Nostr publication") {
		t.Fatalf("exit %d after %s:\n%s", r.Code, took, r.Err)
	}
}
