package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// stateScene is a repository with real Git objects: Alice's announcement
// advertises a bare repository over file://, her work repository pushed
// main, dev and the annotated tag v1 there, and Alice published that as the
// state. w.dir is a plain `git clone` of the bare repository whose origin
// is Alice's nostr:// URL, as git-remote-nostr leaves a clone.
type stateScene struct {
	w               *mutWorld
	work, bare      *gitWork
	cloneURL        string
	mainOID, devOID string
	tagOID          string
	clone           *gitWork
}

func newStateScene(t *testing.T) *stateScene {
	t.Helper()
	s := &stateScene{w: newMutWorld(t, 1), work: newGitWork(t)}
	s.bare, s.cloneURL = newBareServer(t)
	s.mainOID = s.work.commit("first")
	s.work.git("tag", "-a", "-m", "v1", "v1")
	s.tagOID = s.work.rev("v1")
	s.work.git("checkout", "-q", "-b", "dev")
	s.devOID = s.work.commit("dev work")
	s.work.git("checkout", "-q", "main")
	s.work.pushTo(s.bare, "main", "dev", "v1")
	s.w.seed(alice.announce(t, s.w.id, 100, nostr.Tag{"clone", s.cloneURL}),
		alice.sign(t, graph.KindState, 110, nostr.Tag{"d", s.w.id}, nostr.Tag{"refs/heads/main", s.mainOID},
			nostr.Tag{"refs/heads/dev", s.devOID}, nostr.Tag{"refs/tags/v1", s.tagOID}, nostr.Tag{"refs/tags/v1^{}", s.mainOID},
			nostr.Tag{"HEAD", "ref: refs/heads/main"}))
	parent := &gitWork{t: t, dir: t.TempDir()}
	parent.git("clone", "-q", s.cloneURL, "c")
	s.clone = &gitWork{t: t, dir: filepath.Join(parent.dir, "c")}
	s.clone.git("remote", "set-url", "origin", gitstate.NostrURL(alice.coord(s.w.id), nil))
	s.w.dir = s.clone.dir
	return s
}

// stateOf runs `roster repo state --json` as p and decodes it.
func (s *stateScene) stateOf(p person, now int64) map[string]any {
	s.w.t.Helper()
	return s.w.ok(p, alice, now, "repo", "state")
}

func actions(t *testing.T, v any) []string {
	t.Helper()
	var out []string
	for _, x := range v.([]any) {
		m := x.(map[string]any)
		out = append(out, strings.TrimSpace(m["action"].(string)+" "+m["ref"].(string)+" "+str(m["from"])+" "+str(m["to"])))
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// `roster repo state` compares the checkout with the resolved state both
// ways: a plain clone (one local branch, dev only as origin's tracking
// branch) is aligned; then local work is listed as what to change locally
// (align) and, inversely, what publishing would change (force_would), the
// annotated tag and its ^{} as one action.
func TestRepoStateShowsAlignmentBothWays(t *testing.T) {
	t.Parallel()
	s := newStateScene(t)
	m := s.stateOf(alice, 1000)
	if m["schema"] != "roster.state/v1" || m["state"].(map[string]any)["head"] != "refs/heads/main" {
		t.Fatalf("%v", m)
	}
	co := m["checkout"].(map[string]any)
	if co["aligned"] != true || len(co["align"].([]any)) != 0 || len(co["force_would"].([]any)) != 0 ||
		!jsonEqual(co["tracked"], []string{"refs/heads/dev"}) || co["remote"] != "origin" {
		t.Fatalf("a plain clone must be aligned: %v", co)
	}

	ahead := s.clone.commit("local work")
	s.clone.git("branch", "topic")
	s.clone.git("tag", "-d", "v1")
	s.clone.git("checkout", "-q", "topic") // the checked-out branch is not the default branch
	co = s.stateOf(alice, 1000)["checkout"].(map[string]any)
	wantAlign := []string{"update refs/heads/main " + ahead + " " + s.mainOID, "remove refs/heads/topic " + ahead, "add refs/tags/v1  " + s.tagOID}
	wantForce := []string{"update refs/heads/main " + s.mainOID + " " + ahead, "add refs/heads/topic  " + ahead, "remove refs/tags/v1 " + s.tagOID}
	if got := actions(t, co["align"]); !jsonEqual(got, wantAlign) {
		t.Errorf("align\n got %q\nwant %q", got, wantAlign)
	}
	if got := actions(t, co["force_would"]); !jsonEqual(got, wantForce) {
		t.Errorf("force_would\n got %q\nwant %q", got, wantForce)
	}
	r := s.w.run(alice, alice, 1000, "repo", "state")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "main is 1 commit ahead of the published state: roster repo state publish") ||
		strings.Contains(r.Out, "from "+ahead+" to "+s.mainOID) || !strings.Contains(r.Out, "roster repo state publish would:") ||
		!strings.Contains(r.Out, "update branch refs/heads/main from "+s.mainOID+" to "+ahead) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// A checkout whose refs cannot be read completely is not compared from a
// partial list: exit 3 naming the file and the fix.
func TestRepoStateInACheckoutWithUnreadableRefsFailsClosed(t *testing.T) {
	t.Parallel()
	s := newStateScene(t)
	packed := filepath.Join(s.clone.dir, ".git", "packed-refs")
	data, _ := os.ReadFile(packed)
	if err := os.WriteFile(packed, append(data, []byte("not-an-object-id refs/heads/broken\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	r := s.w.run(alice, alice, 1000, "repo", "state", "--json")
	var m map[string]any
	_ = json.Unmarshal([]byte(r.Out), &m)
	e, _ := m["error"].(map[string]any)
	if r.Code != cmdutil.ExitRefused || e["code"] != "local-refs-unreadable" || !strings.Contains(str(e["message"]), ".git/packed-refs") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// storedStates are the kind 30618 events the relay stores.
func (s *stateScene) storedStates() []*nostr.Event {
	return s.w.relays[0].Stored(nostr.Filter{Kinds: []int{graph.KindState}})
}

// `roster repo state publish` publishes the checkout's refs in ngit's
// shape, dated after every candidate, reads it back and checks the
// repository now resolves it; the plain clone's dev (a tracking branch)
// is kept.
func TestStatePublishPublishesReadsBackAndResolves(t *testing.T) {
	t.Parallel()
	s := newStateScene(t)
	next := s.clone.commit("next")
	s.clone.git("push", "-q", s.cloneURL, "main")

	dry := s.w.ok(alice, alice, 1000, "repo", "state", "publish", "--dry-run")
	if dry["dry_run"] != true || len(dry["published"].([]any)) != 0 || len(s.storedStates()) != 1 {
		t.Fatalf("a dry run publishes nothing: %v", dry)
	}
	m := s.w.ok(alice, alice, 1000, "repo", "state", "publish")
	if m["schema"] != "roster.state-publish/v1" || m["verified"] != true || len(m["published"].([]any)) != 1 {
		t.Fatalf("%v", m)
	}
	id := m["published"].([]any)[0].(string)
	var evt *nostr.Event
	for _, e := range s.storedStates() {
		if e.ID == id {
			evt = e
		}
	}
	if evt == nil || evt.PubKey != alice.pk || evt.CreatedAt <= 110 {
		t.Fatalf("stored %v", evt)
	}
	want := nostr.Tags{{"d", s.w.id}, {"refs/heads/dev", s.devOID}, {"refs/heads/main", next},
		{"refs/tags/v1", s.tagOID}, {"refs/tags/v1^{}", s.mainOID}, {"HEAD", "ref: refs/heads/main"}}
	if !jsonEqual(evt.Tags, want) {
		t.Fatalf("tags\n got %v\nwant %v", evt.Tags, want)
	}
	st := s.stateOf(alice, 1100)
	if st["state"].(map[string]any)["event_id"] != id || st["checkout"].(map[string]any)["aligned"] != true {
		t.Fatalf("after publishing: %v", st)
	}
	// Publishing again changes nothing.
	again := s.w.ok(alice, alice, 1200, "repo", "state", "publish")
	if again["unchanged"] != true || len(again["published"].([]any)) != 0 {
		t.Fatalf("%v", again)
	}
}

// A ref whose new commit does not descend from the resolved one, and the
// removal of a resolved ref, are refused without --force (nothing stored);
// --force publishes them.
func TestStatePublishRefusesNonDescendantAndDeletionWithoutForce(t *testing.T) {
	t.Parallel()
	s := newStateScene(t)
	s.clone.git("checkout", "-q", "--orphan", "rewrite")
	rewritten := s.clone.commit("rewritten history")
	s.clone.git("branch", "-f", "main", rewritten)
	s.clone.git("push", "-q", "--force", s.cloneURL, "main")
	m := s.w.refused(alice, alice, 1000, cmdutil.ExitRefused, "not-a-descendant", "repo", "state", "publish")
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "refs/heads/main") || !strings.Contains(msg, rewritten+" does not descend from "+s.mainOID) {
		t.Fatal(msg)
	}
	s.clone.git("checkout", "-q", "--detach")
	s.clone.git("branch", "-f", "main", s.mainOID)
	s.clone.git("checkout", "-q", "main")
	s.clone.git("branch", "-D", "rewrite")
	s.clone.git("update-ref", "-d", "refs/remotes/origin/dev")
	m = s.w.refused(alice, alice, 1000, cmdutil.ExitRefused, "ref-removed", "repo", "state", "publish")
	if msg := m["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "remove branch refs/heads/dev") {
		t.Fatal(msg)
	}
	f := s.w.ok(alice, alice, 1000, "repo", "state", "publish", "--force")
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
	s := newStateScene(t)
	local := s.clone.commit("not pushed")
	m := s.w.refused(alice, alice, 1000, cmdutil.ExitRefused, "objects-unavailable", "repo", "state", "publish")
	e := m["error"].(map[string]any)
	if !strings.Contains(e["message"].(string), "refs/heads/main at "+local) ||
		!strings.Contains(strings.Join(toStrings(e["commands"]), "\n"), "git push "+s.cloneURL+" refs/heads/main") {
		t.Fatalf("%v", e)
	}
	// Alice's announcement now advertises only a server that is not there.
	s.w.seed(alice.announce(t, s.w.id, 200, nostr.Tag{"clone", "file://" + filepath.Join(t.TempDir(), "gone.git")}))
	s.w.refused(alice, alice, 1000, cmdutil.ExitIncomplete, "objects-unknown", "repo", "state", "publish")
}

// Only a confirmed maintainer publishes state.
func TestStatePublishByANonMaintainerIsRefused(t *testing.T) {
	t.Parallel()
	s := newStateScene(t)
	s.w.refused(bob, alice, 1000, cmdutil.ExitRefused, "not-a-maintainer", "repo", "state", "publish")
}

// maintainers.md: "state OIDs that cannot be fetched from the post-change
// component's advertised Git servers" block a membership change that can
// change the answer: Alice's resolved state names a commit her Git server
// does not have, and adding Bob (whose announcement already names her, so
// the add confirms him) brings in his server, which lacks it too; the add
// is refused and stores nothing; with the commit pushed it succeeds.
func TestMembershipAddWhoseStateNamesAnUnavailableCommitIsRefused(t *testing.T) {
	t.Parallel()
	s := newStateScene(t)
	_, bobsServer := newBareServer(t)
	unpushed := s.work.commit("only in alice's work repository")
	s.w.seed(alice.sign(t, graph.KindState, 120, nostr.Tag{"d", s.w.id}, nostr.Tag{"refs/heads/main", unpushed},
		nostr.Tag{"HEAD", "ref: refs/heads/main"}),
		bob.announce(t, s.w.id, 130, role("M", alice, "130"), role("m", bob, "130"), maintainersTag(alice, bob), nostr.Tag{"clone", bobsServer}))
	s.w.dir = t.TempDir() // outside any checkout
	m := s.w.refused(alice, alice, 1000, cmdutil.ExitRefused, "objects-unavailable", "repo", "edit", "--add-maintainer", bob.npub())
	e := m["error"].(map[string]any)
	if !strings.Contains(e["message"].(string), "refs/heads/main at "+unpushed+": none of "+s.cloneURL+", "+bobsServer+" serves it") ||
		!strings.Contains(strings.Join(toStrings(e["commands"]), "\n"), "git push "+s.cloneURL+" refs/heads/main") {
		t.Fatalf("%v", e)
	}
	// The preview says so too.
	s.w.refused(alice, alice, 1000, cmdutil.ExitRefused, "objects-unavailable", "repo", "edit", "--add-maintainer", bob.npub(), "--dry-run")
	s.work.pushTo(s.bare, "main")
	ok := s.w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	checked := strings.Join(toStrings(ok["preview"].(map[string]any)["state"].(map[string]any)["checked"]), "\n")
	notChecked := toStrings(ok["preview"].(map[string]any)["state"].(map[string]any)["not_checked"])
	if !strings.Contains(checked, "served by the post-change component's Git servers") || strings.Contains(strings.Join(notChecked, "\n"), "fetchability") {
		t.Fatalf("checked %q, not_checked %q", checked, notChecked)
	}
}

// No clone URL at all: a plain invitation changes neither the resolved
// state nor the component's Git servers, so fetchability is not asked
// again and the invitation is not refused; the preview says why.
func TestPlainInvitationWithStateAndNoGitServerIsNotRefused(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100), alice.state(t, w.id, 110, strings.Repeat("a", 40)))
	m := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	checked := strings.Join(toStrings(m["preview"].(map[string]any)["state"].(map[string]any)["checked"]), "\n")
	if !strings.Contains(checked, "fetchability not asked again: the resolved state and the component's 0 Git server(s) stay as they were") {
		t.Fatalf("checked %q", checked)
	}
}
