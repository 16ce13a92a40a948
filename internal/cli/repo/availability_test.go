package repo_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// coMaintainers seeds Alice leading with Bob confirmed, Alice's
// announcement advertising aliceClone and Bob's bobClone (either may be
// empty), and Alice's state naming main at mainOID.
func coMaintainers(t *testing.T, w *clitest.MutWorld, aliceClone, bobClone, mainOID string) {
	t.Helper()
	clone := func(u string) []nostr.Tag {
		if u == "" {
			return nil
		}
		return []nostr.Tag{{"clone", u}}
	}
	w.Seed(
		clitest.Alice.Announce(t, w.Id, 100, append([]nostr.Tag{clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)}, clone(aliceClone)...)...),
		clitest.Bob.Announce(t, w.Id, 101, append([]nostr.Tag{clitest.Role("M", clitest.Alice, "100"), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)}, clone(bobClone)...)...),
		clitest.Alice.State(t, w.Id, 110, mainOID))
}

// deadGitURL is a smart-HTTP URL on loopback where nothing answers: port
// 1, which no listener asking for a free port is given (a port just closed
// can be another test's next).
func deadGitURL(t *testing.T) string {
	t.Helper()
	return "http://127.0.0.1:1/gone.git"
}

// Removing a co-maintainer who is not the state author changes neither the
// resolved state nor the component's Git servers (he advertises none of
// his own): with the only Git server down, it goes through, and the
// preview says fetchability was not asked again.
func TestRemovingACoMaintainerWhileTheOnlyGitServerIsDown(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	coMaintainers(t, w, deadGitURL(t), "", strings.Repeat("a", 40))
	m := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--remove-maintainer", clitest.Bob.Npub())
	if got := clitest.Members(t, m); got["bob"] == "confirmed" {
		t.Fatalf("members %v", got)
	}
	checked := strings.Join(clitest.ToStrings(m["preview"].(map[string]any)["state"].(map[string]any)["checked"]), "\n")
	if !strings.Contains(checked, "fetchability not asked again") {
		t.Fatalf("checked %q", checked)
	}
}

// A removal that drops the only server holding the state's objects is
// refused, naming the remaining server that lacks them and the dropped one
// that holds them; when the dropped server lacks them too, or the
// remaining server cannot be reached, the removal goes through and the
// preview says so (fetchability is left as it was, not made worse).
func TestRemovalThatDropsTheOnlyServerHoldingTheObjects(t *testing.T) {
	t.Parallel()
	work := clitest.NewGitWork(t)
	main := work.Commit("only on bob's server")
	bobsBare, bobsServer := clitest.NewBareServer(t)
	work.PushTo(bobsBare, "main")
	_, alicesServer := clitest.NewBareServer(t) // empty

	w := clitest.NewMutWorld(t, 1)
	coMaintainers(t, w, alicesServer, bobsServer, main)
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "objects-unavailable", "repo", "edit", "--remove-maintainer", clitest.Bob.Npub())
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "refs/heads/main at "+main+": "+alicesServer+" does not serve it") ||
		!strings.Contains(msg, "only the Git server(s) this change drops serve them: "+bobsServer) {
		t.Fatalf("message %q: want the remaining server named as lacking main, and the dropped one as its only source", msg)
	}

	// Neither server has the commit: the removal makes nothing worse.
	_, bobsEmpty := clitest.NewBareServer(t)
	w3 := clitest.NewMutWorld(t, 1)
	coMaintainers(t, w3, alicesServer, bobsEmpty, main)
	ok3 := w3.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--remove-maintainer", clitest.Bob.Npub())
	if nc := strings.Join(clitest.ToStrings(ok3["preview"].(map[string]any)["state"].(map[string]any)["not_checked"]), "\n"); !strings.Contains(nc, "did not serve either") {
		t.Fatalf("not_checked %q", nc)
	}

	w2 := clitest.NewMutWorld(t, 1)
	coMaintainers(t, w2, deadGitURL(t), bobsServer, main)
	ok := w2.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--remove-maintainer", clitest.Bob.Npub())
	notChecked := strings.Join(clitest.ToStrings(ok["preview"].(map[string]any)["state"].(map[string]any)["not_checked"]), "\n")
	if !strings.Contains(notChecked, "fetchability from the remaining Git servers (after dropping "+bobsServer+")") || !strings.Contains(notChecked, "unreachable: connection refused") {
		t.Fatalf("not_checked %q: want the unreachable remaining server said", notChecked)
	}
}

// `state publish` of main at c2 passes when the server's main has moved on
// to c3: c2 is in its history and a fetch of it works.
func TestStatePublishOfACommitBehindTheServersBranchPasses(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	c2 := s.Clone.Commit("c2")
	s.Clone.Git("push", "-q", s.Bare.Dir, "main")
	s.Clone.Commit("c3")
	s.Clone.Git("push", "-q", s.Bare.Dir, "main")
	s.Clone.Git("reset", "-q", "--hard", c2)
	m := s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish")
	av := m["availability"].(map[string]any)
	if av["verdict"] != "available" {
		t.Fatalf("availability %v", av)
	}
}

// An scp-like clone URL is asked as the ssh:// URL it means, with the git
// command; a server nothing answers at is exit 4 naming it and the cause.
func TestStatePublishToAnUnreachableSSHServerNamesItAndTheCause(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	port := 1 // nothing listens there (see deadGitURL)
	scp := fmt.Sprintf("[git@127.0.0.1:%d]:o/r.git", port)
	s.W.Seed(clitest.Alice.Announce(t, s.W.Id, 200, nostr.Tag{"clone", scp}))
	s.Clone.Commit("new work")
	m := s.W.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitIncomplete, "objects-unknown", "repo", "state", "publish")
	msg := m["error"].(map[string]any)["message"].(string)
	want := fmt.Sprintf("ssh://git@127.0.0.1:%d/o/r.git (announced as %s) unreachable: connection refused", port, scp)
	if !strings.Contains(msg, want) || strings.Contains(msg, "is not a") {
		t.Fatalf("message %q: want %q", msg, want)
	}
}

// The object check is bound by --timeout: a hanging Git server beside one
// that serves everything does not slow the write, and alone it costs one
// --timeout, not a fixed wait per server.
func TestStatePublishObjectCheckIsBoundByTimeout(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)
	s.W.Seed(clitest.Alice.Announce(t, s.W.Id, 200, nostr.Tag{"clone", hang.URL + "/r.git"}, nostr.Tag{"clone", s.CloneURL}))
	s.Clone.Commit("new work")
	s.Clone.Git("push", "-q", s.Bare.Dir, "main")
	start := time.Now()
	s.W.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish", "--timeout", "4s")
	// Waiting for the hanging server would take the whole 4 s budget on
	// top of the relay rounds, and, as before the bound, 10 s; the slack
	// is for a loaded machine's relay rounds.
	if el := time.Since(start); el > 8*time.Second {
		t.Fatalf("took %v: the hanging server held the write", el)
	}

	s.W.Seed(clitest.Alice.Announce(t, s.W.Id, 300, nostr.Tag{"clone", hang.URL + "/r.git"}))
	s.Clone.Commit("more work")
	start = time.Now()
	m := s.W.Refused(clitest.Alice, clitest.Alice, 2000, cmdutil.ExitIncomplete, "objects-unknown", "repo", "state", "publish", "--timeout", "1s")
	if el := time.Since(start); el > 6*time.Second {
		t.Fatalf("took %v with --timeout 1s", el)
	}
	if msg := m["error"].(map[string]any)["message"].(string); !strings.Contains(msg, hang.URL+"/r.git unreachable: no answer within the time budget") {
		t.Fatalf("message %q", msg)
	}
}

// A passing check still names the servers it did not count, and why, on
// the terminal as in JSON.
func TestStatePublishNotesServersItDidNotCount(t *testing.T) {
	t.Parallel()
	s := clitest.NewStateScene(t)
	ftp := "ftp://127.0.0.1:1/r.git" // a form roster does not fetch from: never contacted
	s.W.Seed(clitest.Alice.Announce(t, s.W.Id, 200, nostr.Tag{"clone", ftp}, nostr.Tag{"clone", s.CloneURL}))
	s.Clone.Commit("new work")
	s.Clone.Git("push", "-q", s.Bare.Dir, "main")
	r := s.W.Run(clitest.Alice, clitest.Alice, 1000, "repo", "state", "publish")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "note: "+ftp+" not asked (unsupported-url)") {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
}
