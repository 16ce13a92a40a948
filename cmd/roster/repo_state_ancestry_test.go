package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// refStatuses are checkout.refs of `roster repo state --json` by ref.
func refStatuses(t *testing.T, m map[string]any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, x := range m["checkout"].(map[string]any)["refs"].([]any) {
		r := x.(map[string]any)
		out[r["ref"].(string)] = r
	}
	return out
}

// "repo state speaks Git": each ref is compared by ancestry in the local
// object store. Alice committed on main (ahead: publish), her dev is back
// at an older commit (behind: the fast-forward to origin/dev), topic is
// only hers; later main diverges, said with both tips. The checkout is
// never told to rewind what is ahead.
func TestRepoStateComparesEachRefByAncestry(t *testing.T) {
	t.Parallel()
	s := newCloneScene(t)
	ahead := s.alice.commit("more work")
	s.alice.git("branch", "-f", "dev", s.base)
	s.alice.git("branch", "topic")
	m := s.w.ok(alice, alice, 1000, "repo", "state")
	refs := refStatuses(t, m)
	if r := refs["refs/heads/main"]; r["status"] != "ahead" || r["ahead"] != 1.0 || r["behind"] != 0.0 || r["checked_out"] != true {
		t.Fatalf("main %v", r)
	}
	if r := refs["refs/heads/dev"]; r["status"] != "behind" || r["behind"] != 1.0 || r["fast_forward"] != "origin/dev" {
		t.Fatalf("dev %v", r)
	}
	if r := refs["refs/heads/topic"]; r["status"] != "only-local" || r["local"] != ahead {
		t.Fatalf("topic %v", r)
	}
	if r := refs["refs/tags/v1"]; r["status"] != "same" {
		t.Fatalf("v1 %v", r)
	}
	r := s.w.run(alice, alice, 1000, "repo", "state")
	for _, want := range []string{
		"main is 1 commit ahead of the published state: roster repo state publish",
		"dev is 1 commit behind the published state: git branch -f dev origin/dev",
		"branch topic is only in this checkout (at " + ahead + "): roster repo state publish",
	} {
		if !strings.Contains(r.Out, want) {
			t.Fatalf("lacks %q:\n%s", want, r.Out)
		}
	}
	if strings.Contains(r.Out, "from "+ahead+" to "+s.main) {
		t.Fatalf("told to rewind main:\n%s", r.Out)
	}

	s.alice.git("reset", "-q", "--hard", s.base)
	mine := s.alice.commit("other work")
	refs = refStatuses(t, s.w.ok(alice, alice, 1000, "repo", "state"))
	if r := refs["refs/heads/main"]; r["status"] != "diverged" || r["ahead"] != 1.0 || r["behind"] != 1.0 {
		t.Fatalf("main %v", r)
	}
	r = s.w.run(alice, alice, 1000, "repo", "state")
	if want := "main has diverged from the published state: this checkout at " + mine + " (1 commit of its own), the state at " + s.main + " (1 commit of its own)"; !strings.Contains(r.Out, want) {
		t.Fatalf("lacks %q:\n%s", want, r.Out)
	}
}

// A branch of the checkout behind the state that is checked out is
// fast-forwarded with `git merge --ff-only <remote>/<branch>`; a published
// commit the checkout lacks is fetched, never guessed at.
func TestRepoStateFastForwardsTheCheckedOutBranchAndFetchesWhatIsMissing(t *testing.T) {
	t.Parallel()
	s := newCloneScene(t)
	co := s.plainClone()
	co.git("reset", "-q", "--hard", s.base)
	s.w.dir = co.dir
	r := s.w.run(bob, alice, 2000, "repo", "state")
	if !strings.Contains(r.Out, "main is 1 commit behind the published state: git merge --ff-only origin/main") {
		t.Fatalf("%s%s", r.Out, r.Err)
	}
	// The state moves on to a commit this clone has never fetched.
	s.alice.commit("newer")
	s.alice.git("push", "-q", "origin", "main")
	s.w.dir = s.alice.dir
	s.w.ok(alice, alice, 300, "repo", "state", "publish")
	s.w.dir = co.dir
	refs := refStatuses(t, s.w.ok(bob, alice, 2000, "repo", "state"))
	if r := refs["refs/heads/main"]; r["status"] != "unknown" || !strings.Contains(str(r["reason"]), "not in this checkout") {
		t.Fatalf("main %v", r)
	}
	if r := s.w.run(bob, alice, 2000, "repo", "state"); !strings.Contains(r.Out, ": git fetch origin") {
		t.Fatalf("%s", r.Out)
	}
}

// What `roster repo state` says publishing would do is what `roster repo
// state publish` does: on a plain clone with an extra local-only branch and
// a removed tag, its changes and its refusals without --force are exactly
// those of `state publish --dry-run` (refused: ref-removed) and `state
// publish --force --dry-run`; the clone's dev, a remote-tracking branch,
// is neither removed nor refused.
func TestRepoStateAndStatePublishAgree(t *testing.T) {
	t.Parallel()
	s := newCloneScene(t)
	co := s.plainClone()
	co.git("branch", "extra")
	co.git("tag", "-d", "v1")
	s.w.dir = co.dir
	preview := s.w.ok(alice, alice, 1000, "repo", "state")["checkout"].(map[string]any)["publish"].(map[string]any)
	refused := s.w.refused(alice, alice, 1000, cmdutil.ExitRefused, "ref-removed", "repo", "state", "publish", "--dry-run")
	forced := s.w.ok(alice, alice, 1000, "repo", "state", "publish", "--force", "--dry-run")
	// An annotated tag's action carries the tag object, as git names it.
	wantChanges := []string{"add refs/heads/extra  " + s.main, "remove refs/tags/v1 " + s.tag}
	if got := actions(t, preview["changes"]); !jsonEqual(got, wantChanges) {
		t.Fatalf("repo state: publishing would %q, want %q", got, wantChanges)
	}
	if !jsonEqual(preview["changes"], forced["changes"]) {
		t.Fatalf("repo state says %v, state publish --force does %v", preview["changes"], forced["changes"])
	}
	rewrites := refused["error"].(map[string]any)["details"].(map[string]any)["rewrites"]
	if !jsonEqual(preview["rewrites"], rewrites) || !jsonEqual(preview["rewrites"], forced["rewrites"]) || len(rewrites.([]any)) != 1 {
		t.Fatalf("refusals differ: repo state %v, state publish %v, --force %v", preview["rewrites"], rewrites, forced["rewrites"])
	}
	if refs := forced["event"].(map[string]any)["refs"].(map[string]any); refs["refs/heads/dev"] != s.dev {
		t.Fatalf("the tracked dev must be published unchanged: %v", refs)
	}
}

// A refused `repo state publish` offers --force last, its loss in words
// right above it on a terminal and in details.force_words.
func TestRefusedStatePublishSaysWhatForceWouldRemoveRightAboveIt(t *testing.T) {
	t.Parallel()
	s := newCloneScene(t)
	s.alice.git("tag", "-d", "v1")
	s.w.dir = s.alice.dir
	words := "--force would remove tag v1 from the repository state"
	m := s.w.refused(alice, alice, 1000, cmdutil.ExitRefused, "ref-removed", "repo", "state", "publish")
	e := m["error"].(map[string]any)
	cmds := toStrings(e["commands"])
	if e["details"].(map[string]any)["force_words"] != words || !strings.Contains(cmds[len(cmds)-1], "--force") ||
		!strings.Contains(cmds[len(cmds)-1], "would remove tag v1") {
		t.Fatalf("%v", e)
	}
	r := s.w.run(alice, alice, 1000, "repo", "state", "publish")
	lines := strings.Split(strings.TrimSpace(r.Err), "\n")
	n := len(lines)
	if r.Code != cmdutil.ExitRefused || n < 3 || lines[n-2] != words || !strings.HasPrefix(lines[n-1], "  run: roster repo state publish ") ||
		!strings.Contains(lines[n-1], "--force") || !strings.Contains(r.Err, "nothing was published") {
		t.Fatalf("exit %d\n%s", r.Code, r.Err)
	}
}

// Only a confirmed maintainer is told to publish: to an invitee a branch
// of their own is listed as only in the checkout, without the command
// that would refuse them.
func TestRepoStateTellsOnlyMaintainersToPublish(t *testing.T) {
	t.Parallel()
	s := newCloneScene(t)
	co := s.plainClone()
	co.git("branch", "wip")
	s.w.dir = co.dir
	only := "branch wip is only in this checkout (at " + s.main + ")"
	if r := s.w.run(bob, alice, 2000, "repo", "state"); !strings.Contains(r.Out, only+"\n") {
		t.Fatalf("an invitee is not told to publish:\n%s", r.Out)
	}
	if r := s.w.run(alice, alice, 2000, "repo", "state"); !strings.Contains(r.Out, only+": roster repo state publish") {
		t.Fatalf("a maintainer is:\n%s", r.Out)
	}
}

// A re-pointed tag is never a fast-forward: repo state marks it as what
// publish refuses without --force, as publish does.
func TestRepoStateAndStatePublishAgreeOnARepointedTag(t *testing.T) {
	t.Parallel()
	s := newCloneScene(t)
	co := s.plainClone()
	co.git("tag", "-f", "v1", s.main)
	s.w.dir = co.dir
	preview := s.w.ok(alice, alice, 1000, "repo", "state")["checkout"].(map[string]any)["publish"].(map[string]any)
	refused := s.w.refused(alice, alice, 1000, cmdutil.ExitRefused, "not-a-descendant", "repo", "state", "publish", "--dry-run")
	rewrites := refused["error"].(map[string]any)["details"].(map[string]any)["rewrites"]
	if len(preview["rewrites"].([]any)) != 1 || !jsonEqual(preview["rewrites"], rewrites) {
		t.Fatalf("repo state %v, state publish %v", preview["rewrites"], rewrites)
	}
}
