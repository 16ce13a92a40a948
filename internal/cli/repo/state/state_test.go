package state_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

func actions(t *testing.T, v any) []string {
	t.Helper()
	var out []string
	for _, x := range v.([]any) {
		m := x.(map[string]any)
		out = append(out, strings.TrimSpace(m["action"].(string)+" "+m["ref"].(string)+" "+clitest.Str(m["from"])+" "+clitest.Str(m["to"])))
	}
	return out
}

// `roster repo state` compares the checkout with the resolved state both
// ways: a plain clone (one local branch, dev only as origin's tracking
// branch) is aligned; then local work is listed as what to change locally
// (align) and, inversely, what publishing would change (force_would), the
// annotated tag and its ^{} as one action.
func TestRepoStateShowsAlignmentBothWays(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	m := s.StateOf(clitest.Alice, 1000)
	if m["schema"] != "roster.state/v1" || m["state"].(map[string]any)["head"] != "refs/heads/main" {
		t.Fatalf("%v", m)
	}
	co := m["checkout"].(map[string]any)
	if co["aligned"] != true || len(co["align"].([]any)) != 0 || len(co["force_would"].([]any)) != 0 ||
		!clitest.JsonEqual(co["tracked"], []string{"refs/heads/dev"}) || co["remote"] != "origin" {
		t.Fatalf("a plain clone must be aligned: %v", co)
	}

	ahead := s.Clone.Commit("local work")
	s.Clone.Git("branch", "topic")
	s.Clone.Git("tag", "-d", "v1")
	s.Clone.Git("checkout", "-q", "topic") // the checked-out branch is not the default branch
	co = s.StateOf(clitest.Alice, 1000)["checkout"].(map[string]any)
	wantAlign := []string{"update refs/heads/main " + ahead + " " + s.MainOID, "remove refs/heads/topic " + ahead, "add refs/tags/v1  " + s.TagOID}
	wantForce := []string{"update refs/heads/main " + s.MainOID + " " + ahead, "add refs/heads/topic  " + ahead, "remove refs/tags/v1 " + s.TagOID}
	if got := actions(t, co["align"]); !clitest.JsonEqual(got, wantAlign) {
		t.Errorf("align\n got %q\nwant %q", got, wantAlign)
	}
	if got := actions(t, co["force_would"]); !clitest.JsonEqual(got, wantForce) {
		t.Errorf("force_would\n got %q\nwant %q", got, wantForce)
	}
	r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "main is 1 commit ahead of the published state: roster repo state publish") ||
		strings.Contains(r.Out, "from "+ahead+" to "+s.MainOID) || !strings.Contains(r.Out, "roster repo state publish would:") ||
		!strings.Contains(r.Out, "update branch refs/heads/main from "+s.MainOID+" to "+ahead) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// A checkout whose refs cannot be read completely is not compared from a
// partial list: exit 3 naming the file and the fix.
func TestRepoStateInACheckoutWithUnreadableRefsFailsClosed(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	packed := filepath.Join(s.Clone.Dir, ".git", "packed-refs")
	data, _ := os.ReadFile(packed)
	if err := os.WriteFile(packed, append(data, []byte("not-an-object-id refs/heads/broken\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "--json")
	var m map[string]any
	_ = json.Unmarshal([]byte(r.Out), &m)
	e, _ := m["error"].(map[string]any)
	if r.Code != cmdutil.ExitRefused || e["code"] != "local-refs-unreadable" || !strings.Contains(clitest.Str(e["message"]), ".git/packed-refs") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// `roster repo state publish` publishes the checkout's refs in ngit's
// shape, dated after every candidate, reads it back and checks the
// repository now resolves it; the plain clone's dev (a tracking branch)
// is kept.
func TestStatePublishPublishesReadsBackAndResolves(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	next := s.Clone.Commit("next")
	s.Clone.Git("push", "-q", s.CloneURL, "main")

	dry := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--dry-run")
	if dry["dry_run"] != true || len(dry["published"].([]any)) != 0 || len(s.StoredStates()) != 1 {
		t.Fatalf("a dry run publishes nothing: %v", dry)
	}
	m := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish")
	if m["schema"] != "roster.state-publish/v1" || m["verified"] != true || len(m["published"].([]any)) != 1 {
		t.Fatalf("%v", m)
	}
	id := m["published"].([]any)[0].(string)
	var evt *nostr.Event
	for _, e := range s.StoredStates() {
		if e.ID == id {
			evt = e
		}
	}
	if evt == nil || evt.PubKey != clitest.Alice.Pk || evt.CreatedAt <= 110 {
		t.Fatalf("stored %v", evt)
	}
	want := nostr.Tags{{"d", s.W.Id}, {"refs/heads/dev", s.DevOID}, {"refs/heads/main", next},
		{"refs/tags/v1", s.TagOID}, {"refs/tags/v1^{}", s.MainOID}, {"HEAD", "ref: refs/heads/main"}}
	if !clitest.JsonEqual(evt.Tags, want) {
		t.Fatalf("tags\n got %v\nwant %v", evt.Tags, want)
	}
	st := s.StateOf(clitest.Alice, 1100)
	if st["state"].(map[string]any)["event_id"] != id || st["checkout"].(map[string]any)["aligned"] != true {
		t.Fatalf("after publishing: %v", st)
	}
	// Publishing again changes nothing.
	again := s.W.Ok(clitest.Alice, clitest.Alice, 1200, "repo", "state", "publish")
	if again["unchanged"] != true || len(again["published"].([]any)) != 0 {
		t.Fatalf("%v", again)
	}
}

// A ref whose new commit does not descend from the resolved one, and the
// removal of a resolved ref, are refused without --force (nothing stored);
// --force publishes them.
func TestStatePublishRefusesNonDescendantAndDeletionWithoutForce(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	s.Clone.Git("checkout", "-q", "--orphan", "rewrite")
	rewritten := s.Clone.Commit("rewritten history")
	s.Clone.Git("branch", "-f", "main", rewritten)
	s.Clone.Git("push", "-q", "--force", s.CloneURL, "main")
	m := s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "not-a-descendant", "repo", "state", "publish")
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "refs/heads/main") || !strings.Contains(msg, rewritten+" does not descend from "+s.MainOID) {
		t.Fatal(msg)
	}
	s.Clone.Git("checkout", "-q", "--detach")
	s.Clone.Git("branch", "-f", "main", s.MainOID)
	s.Clone.Git("checkout", "-q", "main")
	s.Clone.Git("branch", "-D", "rewrite")
	s.Clone.Git("update-ref", "-d", "refs/remotes/origin/dev")
	m = s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "ref-removed", "repo", "state", "publish")
	if msg := m["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "remove branch refs/heads/dev") {
		t.Fatal(msg)
	}
	f := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--force")
	if f["verified"] != true || f["forced"] != true {
		t.Fatalf("%v", f)
	}
	if refs := f["event"].(map[string]any)["refs"].(map[string]any); refs["refs/heads/dev"] != nil {
		t.Fatalf("--force keeps the checkout's refs: %v", refs)
	}
}

// Every OID must be advertised by a Git server in the component's clone
// tags: an unpushed commit is refused naming the ref and the push; a
// clone URL no server answers on is exit 4; nothing is stored.
func TestStatePublishRefusesObjectsNoServerAdvertises(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	local := s.Clone.Commit("not pushed")
	m := s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "objects-unavailable", "repo", "state", "publish")
	e := m["error"].(map[string]any)
	if !strings.Contains(e["message"].(string), "refs/heads/main at "+local) ||
		!strings.Contains(strings.Join(clitest.ToStrings(e["commands"]), "\n"), "git push "+s.CloneURL+" refs/heads/main") {
		t.Fatalf("%v", e)
	}
	// Alice's announcement now advertises only a server that is not there.
	s.W.Seed(clitest.Alice.Announce(t, s.W.Id, 200, nostr.Tag{"clone", "file://" + filepath.Join(t.TempDir(), "gone.git")}))
	s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitIncomplete, "objects-unknown", "repo", "state", "publish")
}

// Only a confirmed maintainer publishes state.
func TestStatePublishByANonMaintainerIsRefused(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	s.W.Refused(clitest.Bob, clitest.Alice, 1000, cmdutil.ExitRefused, "not-a-maintainer", "repo", "state", "publish")
}

// maintainers.md: "state OIDs that cannot be fetched from the post-change
// component's advertised Git servers" block a membership change that can
// change the answer: Alice's resolved state names a commit her Git server
// does not have, and adding Bob (whose announcement already names her, so
// the add confirms him) brings in his server, which lacks it too; the add
// is refused and stores nothing; with the commit pushed it succeeds.
func TestMembershipAddWhoseStateNamesAnUnavailableCommitIsRefused(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	_, bobsServer := clitest.NewBareServer(t)
	unpushed := s.Work.Commit("only in alice's work repository")
	s.W.Seed(clitest.Alice.Sign(t, graph.KindState, 120, nostr.Tag{"d", s.W.Id}, nostr.Tag{"refs/heads/main", unpushed},
		nostr.Tag{"HEAD", "ref: refs/heads/main"}),
		clitest.Bob.Announce(t, s.W.Id, 130, clitest.Role("M", clitest.Alice, "130"), clitest.Role("m", clitest.Bob, "130"), clitest.MaintainersTag(clitest.Alice, clitest.Bob), nostr.Tag{"clone", bobsServer}))
	s.W.Dir = t.TempDir() // outside any checkout
	m := s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "objects-unavailable", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	e := m["error"].(map[string]any)
	if !strings.Contains(e["message"].(string), "refs/heads/main at "+unpushed+": none of "+s.CloneURL+", "+bobsServer+" serves it") ||
		!strings.Contains(strings.Join(clitest.ToStrings(e["commands"]), "\n"), "git push "+s.CloneURL+" refs/heads/main") {
		t.Fatalf("%v", e)
	}
	// The preview says so too.
	s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "objects-unavailable", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run")
	s.Work.PushTo(s.Bare, "main")
	ok := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	checked := strings.Join(clitest.ToStrings(ok["preview"].(map[string]any)["state"].(map[string]any)["checked"]), "\n")
	notChecked := clitest.ToStrings(ok["preview"].(map[string]any)["state"].(map[string]any)["not_checked"])
	if !strings.Contains(checked, "served by the post-change component's Git servers") || strings.Contains(strings.Join(notChecked, "\n"), "fetchability") {
		t.Fatalf("checked %q, not_checked %q", checked, notChecked)
	}
}

// No clone URL at all: a plain invitation changes neither the resolved
// state nor the component's Git servers, so fetchability is not asked
// again and the invitation is not refused; the preview says why.
func TestPlainInvitationWithStateAndNoGitServerIsNotRefused(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100), clitest.Alice.State(t, w.Id, 110, strings.Repeat("a", 40)))
	m := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	checked := strings.Join(clitest.ToStrings(m["preview"].(map[string]any)["state"].(map[string]any)["checked"]), "\n")
	if !strings.Contains(checked, "fetchability not asked again: the resolved state and the component's 0 Git server(s) stay as they were") {
		t.Fatalf("checked %q", checked)
	}
}
