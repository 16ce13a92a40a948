package change_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// targetOf decodes the target object of a write's JSON (stdout).
func targetOf(t *testing.T, r clitest.Result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("not JSON (exit %d): %v\n%s\n%s", r.Code, err, r.Out, r.Err)
	}
	tg, _ := m["target"].(map[string]any)
	if tg == nil {
		t.Fatalf("no target:\n%s", r.Out)
	}
	return tg
}

// targetLine is the first line of the human output that carries the
// target, on stdout for a preview, on stderr for a refusal; it must come
// before anything else of the write's own output.
func targetLine(t *testing.T, r clitest.Result) string {
	t.Helper()
	for _, s := range []string{r.Out, r.Err} {
		if i := strings.Index(s, "target repository: "); i >= 0 {
			if pre := strings.TrimSpace(s[:i]); pre != "" {
				t.Fatalf("output before the target line:\n%s", s)
			}
			line, _, _ := strings.Cut(s[i:], "\n")
			return line
		}
	}
	t.Fatalf("no target line (exit %d):\nstdout: %s\nstderr: %s", r.Code, r.Out, r.Err)
	return ""
}

// "Every write prints, before its preview, target repository: <name>
// <naddr> (from --repo | ...); --json carries target.source": each write
// command, previewed, refused or with nothing to change, in both outputs.
func TestEveryWriteNamesItsTargetAndItsSource(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	w.Ok(clitest.Alice, clitest.Alice, 2200, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	naddr := clitest.Alice.Naddr(w.Id)
	want := "target repository: Test my-repo " + naddr + " (from --repo)"
	for _, c := range []struct {
		who  clitest.Person
		args []string
	}{
		{clitest.Alice, []string{"repo", "edit", "--add-maintainer", clitest.Dave.Npub(), "--dry-run"}},
		{clitest.Alice, []string{"repo", "edit", "--remove-maintainer", clitest.Carol.Npub(), "--dry-run"}},
		{clitest.Alice, []string{"repo", "edit", "--add-moderator", clitest.Dave.Npub(), "--dry-run"}},
		{clitest.Alice, []string{"repo", "edit", "--description", "new words", "--dry-run"}},
		{clitest.Alice, []string{"repo", "edit", "--fix-maintainers"}},                    // refused: nothing-to-repair
		{clitest.Alice, []string{"repo", "edit", "--add-maintainer", clitest.Bob.Npub()}}, // nothing to change
		{clitest.Carol, []string{"repo", "accept", "--dry-run"}},
		{clitest.Bob, []string{"repo", "leave", "--dry-run"}},
		{clitest.Bob, []string{"repo", "follow-lead", "--dry-run"}},
		{clitest.Alice, []string{"repo", "repair", "--dry-run"}}, // refused: nothing-to-repair
	} {
		name := strings.Join(c.args, " ")
		tg := targetOf(t, w.Run(c.who, clitest.Alice, 2300, append(c.args, "--json")...))
		if tg["source"] != "--repo" || tg["naddr"] != naddr || tg["name"] != "Test my-repo" || tg["from"] != "--repo" {
			t.Errorf("%s: target %v", name, tg)
		}
		if got := targetLine(t, w.Run(c.who, clitest.Alice, 2300, c.args...)); got != want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
}

// The checkout's own selection is named with its source; when the
// checkout's nostr.repo names another coordinate than --repo, the write
// says so and uses --repo.
func TestAWriteNamesTheCheckoutsSourceAndAnOverriddenNostrRepo(t *testing.T) {
	t.Parallel()
	w := clitest.TwoMaintainers(t)
	naddr := clitest.Alice.Naddr(w.Id)
	dir, _ := clitest.CheckoutSelecting(t, naddr)
	args := []string{"repo", "edit", "--add-maintainer", clitest.Dave.Npub(), "--dry-run"}
	tg := targetOf(t, w.RunNoRepo(dir, clitest.Alice, 2300, append(args, "--json")...))
	if tg["source"] != "nostr.repo" || tg["naddr"] != naddr {
		t.Fatalf("nostr.repo: %v", tg)
	}
	if got := targetLine(t, w.RunNoRepo(dir, clitest.Alice, 2300, args...)); got != "target repository: Test my-repo "+naddr+" (from nostr.repo)" {
		t.Fatalf("line %q", got)
	}
	// --repo names Bob's coordinate; nostr.repo names Alice's.
	other := clitest.Bob.Naddr(w.Id)
	over := append([]string{"--repo", other}, args...)
	tg = targetOf(t, w.RunNoRepo(dir, clitest.Bob, 2300, append(over, "--json")...))
	if tg["source"] != "--repo" || tg["naddr"] != other || len(clitest.ToStrings(tg["overridden"])) != 1 || clitest.ToStrings(tg["overridden"])[0] != naddr {
		t.Fatalf("overridden: %v", tg)
	}
	r := w.RunNoRepo(dir, clitest.Bob, 2300, over...)
	if line := targetLine(t, r); !strings.HasSuffix(line, other+" (from --repo)") {
		t.Fatalf("line %q", line)
	}
	if s := r.Out + r.Err; !strings.Contains(s, "nostr.repo names another repository, "+naddr) {
		t.Fatalf("the disagreement is not said:\n%s", s)
	}
	// A remote: origin's nostr:// URL.
	rdir := t.TempDir()
	clitest.GitInit(t, rdir)
	clitest.GitRun(t, rdir, "remote", "add", "origin", gitstate.NostrURL(clitest.Alice.Coord(w.Id), nil))
	tg = targetOf(t, w.RunNoRepo(rdir, clitest.Alice, 2300, append(args, "--json")...))
	if tg["source"] != "remote" || tg["remote"] != "origin" || tg["from"] != "remote origin" {
		t.Fatalf("remote: %v", tg)
	}
	// ROSTER_REPO stands for --repo and is named as such.
	env := clitest.WithKey(w.Home, clitest.Alice)
	env["ROSTER_REPO"] = naddr
	full := append(append([]string{"--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...), append(args, "--json")...)
	tg = targetOf(t, clitest.Invocation{Env: env, Dir: w.Dir, Now: time.Unix(2300, 0)}.Roster(t, full...))
	if tg["source"] != "ROSTER_REPO" || tg["from"] != "ROSTER_REPO" {
		t.Fatalf("ROSTER_REPO: %v", tg)
	}
}

// repo state publish names its target too: the clone's origin remote when
// run with no --repo, --repo otherwise; a refusal names it on stderr.
func TestStatePublishNamesItsTarget(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	s.Clone.Commit("next")
	s.Clone.Git("push", "-q", s.CloneURL, "main")
	naddr := clitest.Alice.Naddr(s.W.Id)
	r := s.W.RunNoRepo(s.Clone.Dir, clitest.Alice, 1000, "repo", "state", "publish", "--dry-run", "--json")
	if tg := targetOf(t, r); tg["source"] != "remote" || tg["remote"] != "origin" || tg["naddr"] != naddr {
		t.Fatalf("target %v", tg)
	}
	h := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--dry-run")
	if got := targetLine(t, h); got != "target repository: Test my-repo "+naddr+" (from --repo)" {
		t.Fatalf("line %q", got)
	}
	// Dave is no maintainer: refused, and the target is still named.
	d := s.W.Run(clitest.Dave, clitest.Alice, 1000, "repo", "state", "publish")
	if d.Code != cmdutil.ExitRefused || !strings.HasPrefix(targetLine(t, d), "target repository: Test my-repo "+naddr) {
		t.Fatalf("refusal (exit %d):\n%s", d.Code, d.Err)
	}
	j := s.W.Run(clitest.Dave, clitest.Alice, 1000, "repo", "state", "publish", "--json")
	var m map[string]any
	clitest.DecodeJSON(t, j, &m)
	e, _ := m["error"].(map[string]any)
	det, _ := e["details"].(map[string]any)
	if tg, _ := det["target"].(map[string]any); tg == nil || tg["source"] != "--repo" {
		t.Fatalf("refusal details: %v", m)
	}
}
