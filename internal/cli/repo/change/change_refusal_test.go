package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Every refusal publishes nothing (mutWorld.refused checks the relays).
func TestMembershipRefusalsEndToEnd(t *testing.T) {
	t.Parallel()
	w := threeMaintainers(t)
	cases := []struct {
		who, sel clitest.Person
		code     int
		errCode  string
		args     []string
	}{
		{clitest.Bob, clitest.Alice, cmdutil.ExitRefused, "only-lead-manages-roster", []string{"repo", "edit", "--add-maintainer", clitest.Dave.Npub()}},
		{clitest.Bob, clitest.Alice, cmdutil.ExitRefused, "only-lead-manages-roster", []string{"repo", "edit", "--remove-maintainer", clitest.Carol.Npub()}},
		{clitest.Alice, clitest.Alice, cmdutil.ExitRefused, "lead-exists", []string{"repo", "edit", "--add-maintainer", clitest.Dave.Npub(), "--no-lead-maintainer"}},
		{clitest.Alice, clitest.Alice, cmdutil.ExitRefused, "force-not-available", []string{"repo", "edit", "--remove-maintainer", clitest.Carol.Npub(), "--force"}},
		{clitest.Alice, clitest.Alice, cmdutil.ExitRefused, "force-not-applicable", []string{"repo", "edit", "--add-maintainer", clitest.Dave.Npub(), "--force"}},
		{clitest.Alice, clitest.Alice, cmdutil.ExitRefused, "lead-not-confirmed", []string{"repo", "edit", "--lead-maintainer", clitest.Dave.Npub()}},
		{clitest.Alice, clitest.Alice, cmdutil.ExitRefused, "nothing-to-acknowledge", []string{"repo", "edit", "--acknowledge-maintainer-change", clitest.Bob.Npub()}},
		{clitest.Alice, clitest.Alice, cmdutil.ExitRefused, "nothing-to-repair", []string{"repo", "edit", "--fix-maintainers"}},
		{clitest.Alice, clitest.Alice, cmdutil.ExitRefused, "not-listed", []string{"repo", "edit", "--remove-maintainer", clitest.Dave.Npub()}},
		{clitest.Dave, clitest.Alice, cmdutil.ExitRefused, "not-invited", []string{"repo", "accept"}},
		{clitest.Bob, clitest.Alice, cmdutil.ExitRefused, "already-maintainer", []string{"repo", "accept"}},
		{clitest.Alice, clitest.Alice, cmdutil.ExitUsage, "usage", []string{"repo", "edit", "--add-maintainer", clitest.Dave.Npub(), "--remove-maintainer", clitest.Carol.Npub()}},
		{clitest.Alice, clitest.Alice, cmdutil.ExitUsage, "usage", []string{"repo", "edit", "--add-maintainer", "npub1notakey"}},
	}
	for _, c := range cases {
		t.Run(c.errCode+"/"+strings.Join(c.args[1:], "_"), func(t *testing.T) {
			w.T = t
			w.Refused(c.who, c.sel, 9000, c.code, c.errCode, c.args...)
		})
	}
}

// "Removing one maintainer fails if ... the graph loses anyone else": in a
// leadless repository Carol is connected only through Bob.
func TestRemovalThatPartitionsIsRefusedEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer")
	w.Ok(clitest.Bob, clitest.Alice, 2000, "repo", "accept")
	w.Ok(clitest.Bob, clitest.Alice, 2100, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--no-lead-maintainer")
	w.Seed(clitest.Carol.Announce(t, w.Id, 2200, clitest.Role("m", clitest.Bob, "2200"), clitest.Role("m", clitest.Carol, "2200"), clitest.MaintainersTag(clitest.Bob, clitest.Carol)))
	m := w.Refused(clitest.Alice, clitest.Alice, 2300, cmdutil.ExitRefused, "removal-partitions", "repo", "edit", "--remove-maintainer", clitest.Bob.Npub(), "--no-lead-maintainer")
	if !strings.Contains(m["error"].(map[string]any)["message"].(string), clitest.Carol.Npub()) {
		t.Fatal(m)
	}
}

// "An add that joins another component" is refused, listing every imported person.
func TestAddJoiningAnotherComponentIsRefusedEndToEnd(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100),
		clitest.Bob.Announce(t, w.Id, 200, clitest.Role("m", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Dave, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Dave)),
		clitest.Dave.Announce(t, w.Id, 300, clitest.Role("m", clitest.Bob, "300"), clitest.Role("m", clitest.Dave, "300"), clitest.MaintainersTag(clitest.Bob, clitest.Dave)))
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "repository-join", "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--force")
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, clitest.Dave.Npub()+" via "+clitest.Bob.Npub()+" -> "+clitest.Dave.Npub()) || !strings.Contains(msg, "--force is not available for a repository join") {
		t.Fatal(msg)
	}
}

// "If any event ID changed after preview, it aborts and asks the user to
// rerun the intent": a concurrent announcement between preview and signing.
func TestConcurrentChangeBetweenPreviewAndPublishAborts(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	w.Seams.BeforeRecheck = func() {
		w.Seed(clitest.Bob.Announce(t, w.Id, 1500, clitest.Role("M", clitest.Alice, "1500"), clitest.Role("m", clitest.Bob, "1500"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	}
	stored := w.StoredCount() + len(w.Relays) // the concurrent event itself, on every relay
	r := w.Run(clitest.Alice, clitest.Alice, 2000, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"code": "concurrent-change"`) || !strings.Contains(r.Out, "rerun the command") ||
		!strings.Contains(r.Out, "announcement of "+clitest.Bob.Npub()) {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if w.StoredCount() != stored {
		t.Fatalf("relays stored %d events, want %d: something was published", w.StoredCount(), stored)
	}
	w.WantLatest(clitest.Alice, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "1000"), clitest.Projection(clitest.Alice, clitest.Bob))
}

// Exit 4: a write needs complete answers from every relay; nothing is published.
func TestIncompleteRelayEvidenceIsExit4(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Relays[1].SetSilent(true)
	before := w.StoredCount()
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json", "--timeout", "1s")
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("exit %d, want 4\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if w.StoredCount() != before {
		t.Fatal("published on incomplete evidence")
	}
}

// Exit 6: the event was published but the read-back did not complete.
func TestUnverifiedPublishIsExit6(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Seams.AfterPublish = func() { w.Relays[1].SetSilent(true) }
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json", "--timeout", "1s")
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Out, `"code": "unverified"`) {
		t.Fatalf("exit %d, want 6\n%s\n%s", r.Code, r.Out, r.Err)
	}
}

// "Membership preflight rechecks every announcement and kind 30618 event ID
// used by the preview immediately before signing. A concurrent graph or
// state change aborts the operation": new state between preview and signing.
func TestConcurrentStateChangeBetweenPreviewAndPublishAborts(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	// The previewed state's commit is on the advertised Git server, so the
	// change gets past the object check to the recheck.
	work := clitest.NewGitWork(t)
	bare, cloneURL := clitest.NewBareServer(t)
	first := work.Commit("first")
	work.PushTo(bare, "main")
	w.Seed(clitest.Alice.Announce(t, w.Id, 100, nostr.Tag{"clone", cloneURL}), clitest.Alice.State(t, w.Id, 110, first))
	w.Seams.BeforeRecheck = func() { w.Seed(clitest.Alice.State(t, w.Id, 1500, strings.Repeat("b", 40))) }
	stored := w.StoredCount() // the concurrent state replaces the old one
	r := w.Run(clitest.Alice, clitest.Alice, 2000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"code": "concurrent-change"`) || !strings.Contains(r.Out, "repository state of "+clitest.Alice.Npub()) {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if w.StoredCount() != stored {
		t.Fatalf("relays stored %d events, want %d: something was published", w.StoredCount(), stored)
	}
	w.WantLatest(clitest.Alice, nostr.Tag{"clone", cloneURL}) // still the role-less announcement
}
