package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// runNoRepo runs roster as p in dir without --repo (the checkout selects).
func (w *mutWorld) runNoRepo(dir string, p person, now int64, args ...string) result {
	w.t.Helper()
	full := append([]string{"--timeout", "5s", "--home", w.home["ROSTER_HOME"]}, relayArgs(w.relays)...)
	return invocation{Env: withKey(w.home, p), Dir: dir, Now: time.Unix(now, 0)}.roster(w.t, append(full, args...)...)
}

// targetOf decodes the target object of a write's JSON (stdout).
func targetOf(t *testing.T, r result) map[string]any {
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
func targetLine(t *testing.T, r result) string {
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
	w := twoMaintainers(t)
	w.ok(alice, alice, 2200, "repo", "edit", "--add-maintainer", carol.npub())
	naddr := alice.naddr(w.id)
	want := "target repository: Test my-repo " + naddr + " (from --repo)"
	for _, c := range []struct {
		who  person
		args []string
	}{
		{alice, []string{"repo", "edit", "--add-maintainer", dave.npub(), "--dry-run"}},
		{alice, []string{"repo", "edit", "--remove-maintainer", carol.npub(), "--dry-run"}},
		{alice, []string{"repo", "edit", "--add-moderator", dave.npub(), "--dry-run"}},
		{alice, []string{"repo", "edit", "--description", "new words", "--dry-run"}},
		{alice, []string{"repo", "edit", "--fix-maintainers"}},            // refused: nothing-to-repair
		{alice, []string{"repo", "edit", "--add-maintainer", bob.npub()}}, // nothing to change
		{carol, []string{"repo", "accept", "--dry-run"}},
		{bob, []string{"repo", "leave", "--dry-run"}},
		{bob, []string{"repo", "follow-lead", "--dry-run"}},
		{alice, []string{"repo", "repair", "--dry-run"}}, // refused: nothing-to-repair
	} {
		name := strings.Join(c.args, " ")
		tg := targetOf(t, w.run(c.who, alice, 2300, append(c.args, "--json")...))
		if tg["source"] != "--repo" || tg["naddr"] != naddr || tg["name"] != "Test my-repo" || tg["from"] != "--repo" {
			t.Errorf("%s: target %v", name, tg)
		}
		if got := targetLine(t, w.run(c.who, alice, 2300, c.args...)); got != want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
}

// The checkout's own selection is named with its source; when the
// checkout's nostr.repo names another coordinate than --repo, the write
// says so and uses --repo.
func TestAWriteNamesTheCheckoutsSourceAndAnOverriddenNostrRepo(t *testing.T) {
	t.Parallel()
	w := twoMaintainers(t)
	naddr := alice.naddr(w.id)
	dir, _ := checkoutSelecting(t, naddr)
	args := []string{"repo", "edit", "--add-maintainer", dave.npub(), "--dry-run"}
	tg := targetOf(t, w.runNoRepo(dir, alice, 2300, append(args, "--json")...))
	if tg["source"] != "nostr.repo" || tg["naddr"] != naddr {
		t.Fatalf("nostr.repo: %v", tg)
	}
	if got := targetLine(t, w.runNoRepo(dir, alice, 2300, args...)); got != "target repository: Test my-repo "+naddr+" (from nostr.repo)" {
		t.Fatalf("line %q", got)
	}
	// --repo names Bob's coordinate; nostr.repo names Alice's.
	other := bob.naddr(w.id)
	over := append([]string{"--repo", other}, args...)
	tg = targetOf(t, w.runNoRepo(dir, bob, 2300, append(over, "--json")...))
	if tg["source"] != "--repo" || tg["naddr"] != other || len(toStrings(tg["overridden"])) != 1 || toStrings(tg["overridden"])[0] != naddr {
		t.Fatalf("overridden: %v", tg)
	}
	r := w.runNoRepo(dir, bob, 2300, over...)
	if line := targetLine(t, r); !strings.HasSuffix(line, other+" (from --repo)") {
		t.Fatalf("line %q", line)
	}
	if s := r.Out + r.Err; !strings.Contains(s, "nostr.repo names another repository, "+naddr) {
		t.Fatalf("the disagreement is not said:\n%s", s)
	}
	// A remote: origin's nostr:// URL.
	rdir := t.TempDir()
	gitInit(t, rdir)
	gitRun(t, rdir, "remote", "add", "origin", gitstate.NostrURL(alice.coord(w.id), nil))
	tg = targetOf(t, w.runNoRepo(rdir, alice, 2300, append(args, "--json")...))
	if tg["source"] != "remote" || tg["remote"] != "origin" || tg["from"] != "remote origin" {
		t.Fatalf("remote: %v", tg)
	}
	// ROSTER_REPO stands for --repo and is named as such.
	env := withKey(w.home, alice)
	env["ROSTER_REPO"] = naddr
	full := append(append([]string{"--timeout", "5s", "--home", w.home["ROSTER_HOME"]}, relayArgs(w.relays)...), append(args, "--json")...)
	tg = targetOf(t, invocation{Env: env, Dir: w.dir, Now: time.Unix(2300, 0)}.roster(t, full...))
	if tg["source"] != "ROSTER_REPO" || tg["from"] != "ROSTER_REPO" {
		t.Fatalf("ROSTER_REPO: %v", tg)
	}
}

// repo state publish names its target too: the clone's origin remote when
// run with no --repo, --repo otherwise; a refusal names it on stderr.
func TestStatePublishNamesItsTarget(t *testing.T) {
	t.Parallel()
	s := newStateScene(t)
	s.clone.commit("next")
	s.clone.git("push", "-q", s.cloneURL, "main")
	naddr := alice.naddr(s.w.id)
	r := s.w.runNoRepo(s.clone.dir, alice, 1000, "repo", "state", "publish", "--dry-run", "--json")
	if tg := targetOf(t, r); tg["source"] != "remote" || tg["remote"] != "origin" || tg["naddr"] != naddr {
		t.Fatalf("target %v", tg)
	}
	h := s.w.run(alice, alice, 1000, "repo", "state", "publish", "--dry-run")
	if got := targetLine(t, h); got != "target repository: Test my-repo "+naddr+" (from --repo)" {
		t.Fatalf("line %q", got)
	}
	// Dave is no maintainer: refused, and the target is still named.
	d := s.w.run(dave, alice, 1000, "repo", "state", "publish")
	if d.Code != cmdutil.ExitRefused || !strings.HasPrefix(targetLine(t, d), "target repository: Test my-repo "+naddr) {
		t.Fatalf("refusal (exit %d):\n%s", d.Code, d.Err)
	}
	j := s.w.run(dave, alice, 1000, "repo", "state", "publish", "--json")
	var m map[string]any
	decodeJSON(t, j, &m)
	e, _ := m["error"].(map[string]any)
	det, _ := e["details"].(map[string]any)
	if tg, _ := det["target"].(map[string]any); tg == nil || tg["source"] != "--repo" {
		t.Fatalf("refusal details: %v", m)
	}
}
