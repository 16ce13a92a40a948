package repo_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// "Remote-tracking refs of the advertised servers count": a plain `git
// clone` of the clone URL the component advertises is aligned with the
// state it published, so the invitee's acceptance goes through (exit 0)
// and publishes no state of its own.
func TestAPlainCloneOfTheAdvertisedServerAccepts(t *testing.T) {
	t.Parallel()
	s := clitest.NewCloneScene(t)
	co := s.PlainClone()
	if got := co.Git("branch", "--format=%(refname)"); got != "refs/heads/main" {
		t.Fatalf("a plain clone has only main locally, got %q", got)
	}
	s.W.Dir = co.Dir
	st := s.W.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "state")
	c := st["checkout"].(map[string]any)
	if c["aligned"] != true || !clitest.JsonEqual(c["tracked"], []any{"refs/heads/dev"}) ||
		!clitest.JsonEqual(c["tracked_by"], map[string]any{"refs/heads/dev": "origin/dev"}) {
		t.Fatalf("repo state in a plain clone: %v", c)
	}
	m := s.W.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	if got := clitest.Members(t, m); got["bob"] != "confirmed" {
		t.Fatalf("members %v", got)
	}
	if m["state_published"] != nil {
		t.Fatalf("an aligned accept publishes no state: %v", m["state_published"])
	}
	if n := len(s.W.Relays[0].Stored(nostr.Filter{Kinds: []int{30618}, Authors: []string{clitest.Bob.Pk}})); n != 0 {
		t.Fatalf("bob's accept stored %d state event(s)", n)
	}
}

// The human preview of that acceptance names, in its full evidence
// (--verbose), the branches it counted through remote-tracking branches.
func TestAcceptPreviewNamesTheTrackedBranches(t *testing.T) {
	t.Parallel()
	s := clitest.NewCloneScene(t)
	s.W.Dir = s.PlainClone().Dir
	r := s.W.Run(clitest.Bob, clitest.Alice, 2000, "repo", "accept", "--dry-run", "--verbose")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "refs/heads/dev (origin/dev)") {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
}

// A remote whose URL is not one the component advertises does not stand
// for the repository: its remote-tracking branches never align a branch.
func TestRemoteTrackingBranchesOfAnUnadvertisedRemoteDoNotCount(t *testing.T) {
	t.Parallel()
	s := clitest.NewCloneScene(t)
	co := s.PlainClone()
	co.Git("remote", "set-url", "origin", "file://"+filepath.Join(t.TempDir(), "elsewhere.git"))
	s.W.Dir = co.Dir
	m := s.W.Refused(clitest.Bob, clitest.Alice, 2000, cmdutil.ExitRefused, "state-conflict", "repo", "accept")
	d := m["error"].(map[string]any)["details"].(map[string]any)
	if !clitest.JsonEqual(d["align"], []any{clitest.RefAction("add", "refs/heads/dev", "", s.Dev)}) {
		t.Fatalf("align %v", d["align"])
	}
}

// "Stale local refs": branches of the clone behind the state are update
// actions whose commands are the fast-forwards (`git merge --ff-only` for
// the branch checked out, `git branch -f` for another); --force is
// offered last, after them and the rerun, saying that it would rewind the
// state. Running the printed Git commands aligns the clone and the
// acceptance then goes through.
func TestStaleLocalBranchesAreFastForwardedBeforeForceIsOffered(t *testing.T) {
	t.Parallel()
	s := clitest.NewCloneScene(t)
	co := s.PlainClone()
	co.Git("reset", "-q", "--hard", s.Base)
	co.Git("branch", "dev", s.Base)
	s.W.Dir = co.Dir
	m := s.W.Refused(clitest.Bob, clitest.Alice, 2000, cmdutil.ExitRefused, "state-conflict", "repo", "accept")
	e := m["error"].(map[string]any)
	d := e["details"].(map[string]any)
	if !clitest.JsonEqual(d["align"], []any{clitest.RefAction("update", "refs/heads/dev", s.Base, s.Dev), clitest.RefAction("update", "refs/heads/main", s.Base, s.Main)}) {
		t.Fatalf("align %v", d["align"])
	}
	words := "--force would rewind branch dev from " + s.Dev + " to " + s.Base + " and rewind branch main from " + s.Main + " to " + s.Base + " in the repository state"
	if d["force_words"] != words || !strings.Contains(clitest.Str(e["message"]), words) {
		t.Fatalf("force_words %v\nmessage %s", d["force_words"], e["message"])
	}
	cmds := clitest.ToStrings(e["commands"])
	if len(cmds) != 4 || !strings.HasPrefix(cmds[0], "git branch -f dev origin/dev  #") || !strings.HasPrefix(cmds[1], "git merge --ff-only origin/main  #") ||
		!strings.HasPrefix(cmds[2], "roster repo accept ") || strings.Contains(cmds[2], "--force") ||
		!strings.Contains(cmds[3], "--force") || !strings.Contains(cmds[3], strings.TrimPrefix(words, "--force ")) {
		t.Fatalf("commands, --force last with its loss:\n%s", strings.Join(cmds, "\n"))
	}

	// On a terminal the words stand right above the --force command.
	r := s.W.Run(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	lines := strings.Split(strings.TrimSpace(r.Err), "\n")
	force := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "  run: ") && strings.Contains(l, " --force") {
			force = i
		}
	}
	if r.Code != cmdutil.ExitRefused || force < 1 || lines[force-1] != words || strings.Contains(strings.Join(lines[force+1:], "\n"), "run:") {
		t.Fatalf("exit %d; --force must come last, its loss right above it:\n%s", r.Code, r.Err)
	}
	if strings.Index(r.Err, "run: git merge --ff-only origin/main") > strings.Index(r.Err, words) {
		t.Fatalf("the alignment commands come before --force:\n%s", r.Err)
	}

	for _, c := range cmds[:2] {
		co.Git(strings.Fields(strings.SplitN(c, "  #", 2)[0])[1:]...)
	}
	if got := clitest.Members(t, s.W.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")); got["bob"] != "confirmed" {
		t.Fatalf("members %v", got)
	}
}

// A branch only this clone has is not lost by --force (it would be added);
// a state branch the clone lacks everywhere is what --force would remove,
// said in those words.
func TestForceSaysWhichBranchItWouldRemoveFromTheState(t *testing.T) {
	t.Parallel()
	s := clitest.NewCloneScene(t)
	co := s.PlainClone()
	co.Git("update-ref", "-d", "refs/remotes/origin/dev")
	s.W.Dir = co.Dir
	m := s.W.Refused(clitest.Bob, clitest.Alice, 2000, cmdutil.ExitRefused, "state-conflict", "repo", "accept")
	e := m["error"].(map[string]any)
	if d := e["details"].(map[string]any); d["force_words"] != "--force would remove branch dev from the repository state" {
		t.Fatalf("force_words %v", d["force_words"])
	}
	cmds := clitest.ToStrings(e["commands"])
	if len(cmds) == 0 || !strings.Contains(cmds[0], "git fetch origin") || !strings.Contains(cmds[len(cmds)-1], "--force") {
		t.Fatalf("commands %v", cmds)
	}
}
