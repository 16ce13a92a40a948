package state_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

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
	s := clitest.NewCloneScene(t)
	ahead := s.Alice.Commit("more work")
	s.Alice.Git("branch", "-f", "dev", s.Base)
	s.Alice.Git("branch", "topic")
	m := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state")
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
	r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state")
	for _, want := range []string{
		"main is 1 commit ahead of the published state: roster repo state publish",
		"dev is 1 commit behind the published state: git branch -f dev origin/dev",
		"branch topic is only in this checkout (at " + ahead + "): roster repo state publish",
	} {
		if !strings.Contains(r.Out, want) {
			t.Fatalf("lacks %q:\n%s", want, r.Out)
		}
	}
	if strings.Contains(r.Out, "from "+ahead+" to "+s.Main) {
		t.Fatalf("told to rewind main:\n%s", r.Out)
	}

	s.Alice.Git("reset", "-q", "--hard", s.Base)
	mine := s.Alice.Commit("other work")
	refs = refStatuses(t, s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state"))
	if r := refs["refs/heads/main"]; r["status"] != "diverged" || r["ahead"] != 1.0 || r["behind"] != 1.0 {
		t.Fatalf("main %v", r)
	}
	r = s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state")
	if want := "main has diverged from the published state: this checkout at " + mine + " (1 commit of its own), the state at " + s.Main + " (1 commit of its own)"; !strings.Contains(r.Out, want) {
		t.Fatalf("lacks %q:\n%s", want, r.Out)
	}
}

// A branch of the checkout behind the state that is checked out is
// fast-forwarded with `git merge --ff-only <remote>/<branch>`; a published
// commit the checkout lacks is fetched, never guessed at.
func TestRepoStateFastForwardsTheCheckedOutBranchAndFetchesWhatIsMissing(t *testing.T) {
	t.Parallel()
	s := clitest.NewCloneScene(t)
	co := s.PlainClone()
	co.Git("reset", "-q", "--hard", s.Base)
	s.W.Dir = co.Dir
	r := s.W.Run(clitest.Bob, clitest.Alice, 2000, "repo", "state")
	if !strings.Contains(r.Out, "main is 1 commit behind the published state: git merge --ff-only origin/main") {
		t.Fatalf("%s%s", r.Out, r.Err)
	}
	// The state moves on to a commit this clone has never fetched.
	s.Alice.Commit("newer")
	s.Alice.Git("push", "-q", "origin", "main")
	s.W.Dir = s.Alice.Dir
	s.W.Ok(clitest.Alice, clitest.Alice, 300, "repo", "state", "publish")
	s.W.Dir = co.Dir
	refs := refStatuses(t, s.W.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "state"))
	if r := refs["refs/heads/main"]; r["status"] != "unknown" || !strings.Contains(clitest.Str(r["reason"]), "not in this checkout") {
		t.Fatalf("main %v", r)
	}
	if r := s.W.Run(clitest.Bob, clitest.Alice, 2000, "repo", "state"); !strings.Contains(r.Out, ": git fetch origin") {
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
	s := clitest.NewCloneScene(t)
	co := s.PlainClone()
	co.Git("branch", "extra")
	co.Git("tag", "-d", "v1")
	s.W.Dir = co.Dir
	preview := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state")["checkout"].(map[string]any)["publish"].(map[string]any)
	refused := s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "ref-removed", "repo", "state", "publish", "--dry-run")
	forced := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--force", "--dry-run")
	// An annotated tag's action carries the tag object, as git names it.
	wantChanges := []string{"add refs/heads/extra  " + s.Main, "remove refs/tags/v1 " + s.Tag}
	if got := actions(t, preview["changes"]); !clitest.JsonEqual(got, wantChanges) {
		t.Fatalf("repo state: publishing would %q, want %q", got, wantChanges)
	}
	if !clitest.JsonEqual(preview["changes"], forced["changes"]) {
		t.Fatalf("repo state says %v, state publish --force does %v", preview["changes"], forced["changes"])
	}
	rewrites := refused["error"].(map[string]any)["details"].(map[string]any)["rewrites"]
	if !clitest.JsonEqual(preview["rewrites"], rewrites) || !clitest.JsonEqual(preview["rewrites"], forced["rewrites"]) || len(rewrites.([]any)) != 1 {
		t.Fatalf("refusals differ: repo state %v, state publish %v, --force %v", preview["rewrites"], rewrites, forced["rewrites"])
	}
	if refs := forced["event"].(map[string]any)["refs"].(map[string]any); refs["refs/heads/dev"] != s.Dev {
		t.Fatalf("the tracked dev must be published unchanged: %v", refs)
	}
}

// A refused `repo state publish` offers --force last, its loss in words
// right above it on a terminal and in details.force_words.
func TestRefusedStatePublishSaysWhatForceWouldRemoveRightAboveIt(t *testing.T) {
	t.Parallel()
	s := clitest.NewCloneScene(t)
	s.Alice.Git("tag", "-d", "v1")
	s.W.Dir = s.Alice.Dir
	words := "--force would remove tag v1 from the repository state"
	m := s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "ref-removed", "repo", "state", "publish")
	e := m["error"].(map[string]any)
	cmds := clitest.ToStrings(e["commands"])
	if e["details"].(map[string]any)["force_words"] != words || !strings.Contains(cmds[len(cmds)-1], "--force") ||
		!strings.Contains(cmds[len(cmds)-1], "would remove tag v1") {
		t.Fatalf("%v", e)
	}
	r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish")
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
	s := clitest.NewCloneScene(t)
	co := s.PlainClone()
	co.Git("branch", "wip")
	s.W.Dir = co.Dir
	only := "branch wip is only in this checkout (at " + s.Main + ")"
	if r := s.W.Run(clitest.Bob, clitest.Alice, 2000, "repo", "state"); !strings.Contains(r.Out, only+"\n") {
		t.Fatalf("an invitee is not told to publish:\n%s", r.Out)
	}
	if r := s.W.Run(clitest.Alice, clitest.Alice, 2000, "repo", "state"); !strings.Contains(r.Out, only+": roster repo state publish") {
		t.Fatalf("a maintainer is:\n%s", r.Out)
	}
}

// A re-pointed tag is never a fast-forward: repo state marks it as what
// publish refuses without --force, as publish does.
func TestRepoStateAndStatePublishAgreeOnARepointedTag(t *testing.T) {
	t.Parallel()
	s := clitest.NewCloneScene(t)
	co := s.PlainClone()
	co.Git("tag", "-f", "v1", s.Main)
	s.W.Dir = co.Dir
	preview := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state")["checkout"].(map[string]any)["publish"].(map[string]any)
	refused := s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "not-a-descendant", "repo", "state", "publish", "--dry-run")
	rewrites := refused["error"].(map[string]any)["details"].(map[string]any)["rewrites"]
	if len(preview["rewrites"].([]any)) != 1 || !clitest.JsonEqual(preview["rewrites"], rewrites) {
		t.Fatalf("repo state %v, state publish %v", preview["rewrites"], rewrites)
	}
}
