package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// The maintainer model: the removal is reported "after every ngit or Git
// command in the checkout". With the hooks installed, git checkout, git
// merge and git commit --amend print the same warning `roster repo`
// prints, once each, from the cache, and succeed.
func TestHooksRepeatWarningsAfterGitCommands(t *testing.T) {
	t.Parallel()
	w := clitest.NewHookWorld(t, clitest.Carol, clitest.Removal(t)...)
	w.Cache()
	r := w.Install()
	for _, want := range []string{"post-checkout  installed", "pre-push       installed", "the hooks run "} {
		if !strings.Contains(r.Out, want) {
			t.Fatalf("install output lacks %q:\n%s", want, r.Out)
		}
	}
	// Prefixed "roster: ", so that in Git's output it is not read as Git's.
	warning := "roster: error: " + clitest.Alice.Npub() + " no longer lists you as a maintainer of this repository\n" +
		"update your announcement and retain its history with: roster repo follow-lead"
	steps := [][]string{
		{"checkout", "-q", "-b", "topic"},
		{"commit", "-q", "--allow-empty", "-m", "work"},
		{"checkout", "-q", "main"},
		{"merge", "-q", "--ff-only", "topic"},
		{"commit", "-q", "--amend", "--allow-empty", "-m", "work, amended"},
	}
	for _, args := range steps {
		out := w.MustGit(w.Dir, args...)
		want := 1
		if args[0] == "commit" && len(args) < 6 {
			want = 0 // a plain commit runs none of roster's hooks
		}
		if n := strings.Count(out, warning); n != want {
			t.Fatalf("git %s printed the removal warning %d times, want %d:\n%s", strings.Join(args, " "), n, want, out)
		}
	}
	// The warnings are the signer's: Bob, in the same checkout, is not told
	// he was removed, but is told what is waiting for him.
	w.As(clitest.Bob)
	if out := w.MustGit(w.Dir, "checkout", "-q", "topic"); strings.Contains(out, "no longer lists you") ||
		!strings.Contains(out, clitest.Carol.Npub()+" left maintainership") {
		t.Fatalf("bob's checkout printed:\n%s", out)
	}
	// Re-installing changes nothing.
	if r := w.Install(); strings.Count(r.Out, "unchanged") != 4 {
		t.Fatalf("second install:\n%s", r.Out)
	}
}

// The pre-push guard: a maintainer the lead no longer lists cannot push
// (Git aborts, the server is unchanged), told the two ways out; a
// confirmed maintainer pushes from the same checkout.
func TestHooksPrePushRefusesAMaintainerTheLeadRemoved(t *testing.T) {
	t.Parallel()
	w := clitest.NewHookWorld(t, clitest.Carol, clitest.Removal(t)...)
	bare := w.Server()
	w.Install(clitest.RelayArgs(w.Relays)...)
	out, err := w.Git(w.Dir, "push", "-q", "server", "main")
	if err == nil {
		t.Fatalf("the push went through:\n%s", out)
	}
	t.Logf("refused push:\n%s", out)
	sel := " --relay " + w.Relays[0].URL()
	for _, want := range []string{
		"roster: refusing to push: " + clitest.Alice.Npub() + " no longer lists you as a maintainer of " + clitest.Alice.Npub() + "/proj",
		"run: roster repo follow-lead" + sel + "  # follow the lead",
		"run: roster repo init --identifier <new-identifier>" + sel + "  # or keep this work as a repository of your own",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("push output lacks %q:\n%s", want, out)
		}
	}
	if got := w.ServerHas(bare, "refs/heads/main"); got != "" {
		t.Fatalf("the server received main (%s)", got)
	}
	w.As(clitest.Bob)
	if out, err := w.Git(w.Dir, "push", "-q", "server", "main"); err != nil {
		t.Fatalf("bob's push was refused: %v\n%s", err, out)
	}
	if w.ServerHas(bare, "refs/heads/main") == "" {
		t.Fatal("bob's push did not reach the server")
	}
}

// The pre-push guard: a just-confirmed maintainer (confirmed, no state of
// their own) cannot push a ref that does not descend from the accepted
// state; once they merged it, they can.
func TestHooksPrePushRefusesRefsThatDoNotDescendFromTheAcceptedState(t *testing.T) {
	t.Parallel()
	w := clitest.NewHookWorld(t, clitest.Bob)
	bare := w.Server()
	w.MustGit(w.Dir, "commit", "-q", "--allow-empty", "-m", "accepted")
	accepted := strings.TrimSpace(w.MustGit(w.Dir, "rev-parse", "HEAD"))
	w.MustGit(w.Dir, "push", "-q", "server", "main") // no hooks yet: the lead's history
	w.MustGit(w.Dir, "reset", "-q", "--hard", "HEAD~1")
	w.MustGit(w.Dir, "commit", "-q", "--allow-empty", "-m", "bob's own line")
	clitest.Publish(t, w.Relays[0].URL(),
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Alice.State(t, "proj", 1003, accepted))
	w.Install(clitest.RelayArgs(w.Relays)...)

	out, err := w.Git(w.Dir, "push", "-q", "--force", "server", "main")
	if err == nil {
		t.Fatalf("the diverged push went through:\n%s", out)
	}
	for _, want := range []string{"refusing to push: you were just confirmed as a maintainer of " + clitest.Alice.Npub() + "/proj",
		"refs/heads/main: ", "does not contain " + accepted[:12], "run: roster repo state", "run: git merge " + accepted} {
		if !strings.Contains(out, want) {
			t.Fatalf("push output lacks %q:\n%s", want, out)
		}
	}
	t.Logf("diverged push:\n%s", out)
	if got := w.ServerHas(bare, "refs/heads/main"); got != accepted {
		t.Fatalf("server main is %s, want the accepted %s", got, accepted)
	}
	w.MustGit(w.Dir, "merge", "-q", "-m", "build on the accepted state", accepted)
	if out, err := w.Git(w.Dir, "push", "-q", "server", "main"); err != nil {
		t.Fatalf("the push that descends from the state was refused: %v\n%s", err, out)
	}
}

// Not every relay answered within the deadline: the guard's finding is a
// warning that says so, and the push goes through.
func TestHooksPrePushLetsThePushThroughOnIncompleteEvidence(t *testing.T) {
	t.Parallel()
	w := clitest.NewHookWorld(t, clitest.Carol, clitest.Removal(t)...)
	dead := devrelay.StartN(t, 1, devrelay.Options{})[0]
	dead.Stop()
	bare := w.Server()
	w.Install("--relay", w.Relays[0].URL(), "--relay", dead.URL())
	out, err := w.Git(w.Dir, "push", "-q", "server", "main")
	if err != nil {
		t.Fatalf("the push was refused on incomplete evidence: %v\n%s", err, out)
	}
	for _, want := range []string{"roster: warning: the relays that answered say: " + clitest.Alice.Npub() + " no longer lists you",
		dead.URL() + " did not answer within the deadline", "pushing to a Git server is not a Nostr publication", "run: roster repo follow-lead"} {
		if !strings.Contains(out, want) {
			t.Fatalf("push output lacks %q:\n%s", want, out)
		}
	}
	if w.ServerHas(bare, "refs/heads/main") == "" {
		t.Fatal("the push did not reach the server")
	}
	// No relay answered at all: the push is not checked, and goes on.
	w.Install("--relay", dead.URL())
	w.MustGit(w.Dir, "commit", "-q", "--allow-empty", "-m", "more")
	out, err = w.Git(w.Dir, "push", "-q", "server", "main")
	if err != nil || !strings.Contains(out, "roster hook: no relay answered within 5s ("+dead.URL()) ||
		!strings.Contains(out, "the push is not checked") {
		t.Fatalf("push with no relay answering: %v\n%s", err, out)
	}
}

// A hook that was there keeps running: install chains it (arguments and
// stdin passed through, its exit status kept for pre-push), status says
// so, and uninstall puts it back as it was.
func TestHooksChainAForeignHook(t *testing.T) {
	t.Parallel()
	w := clitest.NewHookWorld(t, clitest.Carol, clitest.Removal(t)...)
	w.Cache()
	bare := w.Server()
	hooksDir := filepath.Join(w.Dir, ".git", "hooks")
	marker := filepath.Join(t.TempDir(), "marker")
	postCheckout := "#!/bin/sh\necho \"$@\" > '" + marker + "'\n"
	prePush := "#!/bin/sh\ncat > '" + marker + ".push'\nexit \"${PRE_PUSH_EXIT:-0}\"\n"
	for name, content := range map[string]string{"post-checkout": postCheckout, "pre-push": prePush} {
		if err := os.WriteFile(filepath.Join(hooksDir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := w.Install(clitest.RelayArgs(w.Relays)...)
	if !strings.Contains(r.Out, "post-checkout  chained: the hook that was here runs first, as post-checkout.roster-chained") {
		t.Fatalf("install output:\n%s", r.Out)
	}
	st := w.Roster("hooks", "status", "--json")
	var status struct {
		Schema string `json:"schema"`
		Hooks  []struct {
			Name, Status string
			Current      bool
			Chained      *string
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(st.Out), &status); err != nil || status.Schema != "roster.hooks-status/v1" {
		t.Fatalf("status --json: %v\n%s", err, st.Out)
	}
	want := map[string]string{"post-checkout": "chained", "post-merge": "roster", "post-rewrite": "roster", "pre-push": "chained"}
	for _, h := range status.Hooks {
		if h.Status != want[h.Name] || (h.Status == "chained") != (h.Chained != nil) {
			t.Fatalf("status %+v, want %v", status.Hooks, want)
		}
		if !h.Current {
			t.Fatalf("%s is not current right after install", h.Name)
		}
	}

	out := w.MustGit(w.Dir, "checkout", "-q", "-b", "topic")
	b, err := os.ReadFile(marker)
	if err != nil || len(strings.Fields(string(b))) != 3 {
		t.Fatalf("the chained post-checkout did not run with Git's three arguments: %q %v", b, err)
	}
	if !strings.Contains(out, "no longer lists you") {
		t.Fatalf("roster's part did not run after the chained hook:\n%s", out)
	}

	head := strings.TrimSpace(w.MustGit(w.Dir, "rev-parse", "HEAD"))
	w.Env["PRE_PUSH_EXIT"] = "7"
	if out, err := w.Git(w.Dir, "push", "-q", "server", "topic"); err == nil || strings.Contains(out, "refusing to push") {
		t.Fatalf("a failing chained pre-push must stop the push before roster runs: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(marker + ".push"); !strings.HasPrefix(string(b), "refs/heads/topic "+head+" refs/heads/topic ") {
		t.Fatalf("the chained pre-push did not get Git's stdin: %q", b)
	}
	delete(w.Env, "PRE_PUSH_EXIT")
	if w.ServerHas(bare, "refs/heads/topic") != "" {
		t.Fatal("the push reached the server")
	}

	r = w.Roster("hooks", "uninstall", "--json")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, `"schema": "roster.hooks-uninstall/v1"`) || !strings.Contains(r.Out, `"action": "restored"`) {
		t.Fatalf("uninstall: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	for name, content := range map[string]string{"post-checkout": postCheckout, "pre-push": prePush} {
		if b, err := os.ReadFile(filepath.Join(hooksDir, name)); err != nil || string(b) != content {
			t.Fatalf("%s after uninstall: %q %v", name, b, err)
		}
	}
	if _, err := os.Stat(filepath.Join(hooksDir, "post-merge")); !os.IsNotExist(err) {
		t.Fatalf("post-merge is still there after uninstall: %v", err)
	}
}

// A hook that cannot be chained stops the install (exit 3) naming the
// file; core.hooksPath is where the hooks go.
func TestHooksInstallRefusesAnUnchainableHookAndHonoursCoreHooksPath(t *testing.T) {
	t.Parallel()
	w := clitest.NewHookWorld(t, clitest.Carol)
	w.MustGit(w.Dir, "config", "core.hooksPath", "tools/hooks")
	dir := filepath.Join(w.Dir, "tools", "hooks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/usr/share/shared-hook", filepath.Join(dir, "post-merge")); err != nil {
		t.Fatal(err)
	}
	r := w.Roster("hooks", "install")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, filepath.Join(dir, "post-merge")+" is a symbolic link to /usr/share/shared-hook") {
		t.Fatalf("exit %d\n%s", r.Code, r.Err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("install wrote into %s: %d entries", dir, len(entries))
	}
	r = w.Roster("hooks", "install", "--json")
	var e struct {
		Error struct {
			Code    string         `json:"code"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Out), &e); err != nil || e.Error.Code != "hook-not-chainable" {
		t.Fatalf("--json: %v\n%s", err, r.Out)
	}
	os.Remove(filepath.Join(dir, "post-merge"))
	r = w.Roster("hooks", "install", "--json")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, `"core_hooks_path": "tools/hooks"`) || !strings.Contains(r.Out, `"hooks_dir": "`+dir+`"`) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if _, err := os.Stat(filepath.Join(dir, "pre-push")); err != nil {
		t.Fatalf("pre-push not in core.hooksPath: %v", err)
	}
}

// repo init and repo accept mention `roster hooks install` once in their
// human output (a stderr tip), not in JSON, and not once the hooks are in.
func TestRepoInitAndAcceptMentionHooksInstallOnce(t *testing.T) {
	t.Parallel()
	const tip = "roster hooks install"
	w := clitest.NewHookWorld(t, clitest.Alice)
	init := append([]string{"repo", "init", "--identifier", "proj"}, clitest.RelayArgs(w.Relays)...)
	r := w.Roster(init...)
	if r.Code != cmdutil.ExitOK || strings.Count(r.Out+r.Err, tip) != 1 || !strings.Contains(r.Err, "tip: ") {
		t.Fatalf("init: exit %d, want one tip\nstdout:\n%s\nstderr:\n%s", r.Code, r.Out, r.Err)
	}
	t.Logf("init:\n%s%s", r.Out, r.Err)
	if !strings.Contains(r.Err, tip+" --relay "+w.Relays[0].URL()) {
		t.Fatalf("the tip does not carry --relay, which the hooks would need:\n%s", r.Err)
	}
	if r = w.Roster(append(init, "--json")...); r.Code != cmdutil.ExitOK || strings.Contains(r.Out+r.Err, tip) {
		t.Fatalf("init --json: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	w.Install(clitest.RelayArgs(w.Relays)...)
	if r = w.Roster(init...); r.Code != cmdutil.ExitOK || strings.Contains(r.Out+r.Err, tip) {
		t.Fatalf("init with the hooks installed: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}

	b := clitest.NewHookWorld(t, clitest.Bob, clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	r = b.Roster(append([]string{"repo", "accept"}, clitest.RelayArgs(b.Relays)...)...)
	if r.Code != cmdutil.ExitOK || strings.Count(r.Out+r.Err, tip) != 1 {
		t.Fatalf("accept: exit %d, want one tip\nstdout:\n%s\nstderr:\n%s", r.Code, r.Out, r.Err)
	}
}
