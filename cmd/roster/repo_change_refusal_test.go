package main

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Every refusal publishes nothing (mutWorld.refused checks the relays).
func TestMembershipRefusalsEndToEnd(t *testing.T) {
	t.Parallel()
	w := threeMaintainers(t)
	cases := []struct {
		who, sel person
		code     int
		errCode  string
		args     []string
	}{
		{bob, alice, cmdutil.ExitRefused, "only-lead-manages-roster", []string{"repo", "edit", "--add-maintainer", dave.npub()}},
		{bob, alice, cmdutil.ExitRefused, "only-lead-manages-roster", []string{"repo", "edit", "--remove-maintainer", carol.npub()}},
		{alice, alice, cmdutil.ExitRefused, "lead-exists", []string{"repo", "edit", "--add-maintainer", dave.npub(), "--no-lead-maintainer"}},
		{alice, alice, cmdutil.ExitRefused, "force-not-available", []string{"repo", "edit", "--remove-maintainer", carol.npub(), "--force"}},
		{alice, alice, cmdutil.ExitRefused, "force-not-applicable", []string{"repo", "edit", "--add-maintainer", dave.npub(), "--force"}},
		{alice, alice, cmdutil.ExitRefused, "lead-not-confirmed", []string{"repo", "edit", "--lead-maintainer", dave.npub()}},
		{alice, alice, cmdutil.ExitRefused, "nothing-to-acknowledge", []string{"repo", "edit", "--acknowledge-maintainer-change", bob.npub()}},
		{alice, alice, cmdutil.ExitRefused, "nothing-to-repair", []string{"repo", "edit", "--fix-maintainers"}},
		{alice, alice, cmdutil.ExitRefused, "not-listed", []string{"repo", "edit", "--remove-maintainer", dave.npub()}},
		{dave, alice, cmdutil.ExitRefused, "not-invited", []string{"repo", "accept"}},
		{bob, alice, cmdutil.ExitRefused, "already-maintainer", []string{"repo", "accept"}},
		{alice, alice, cmdutil.ExitUsage, "usage", []string{"repo", "edit", "--add-maintainer", dave.npub(), "--remove-maintainer", carol.npub()}},
		{alice, alice, cmdutil.ExitUsage, "usage", []string{"repo", "edit", "--add-maintainer", "npub1notakey"}},
	}
	for _, c := range cases {
		t.Run(c.errCode+"/"+strings.Join(c.args[1:], "_"), func(t *testing.T) {
			w.t = t
			w.refused(c.who, c.sel, 9000, c.code, c.errCode, c.args...)
		})
	}
}

// "Removing one maintainer fails if ... the graph loses anyone else": in a
// leadless repository Carol is connected only through Bob.
func TestRemovalThatPartitionsIsRefusedEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--no-lead-maintainer")
	w.ok(bob, alice, 2000, "repo", "accept")
	w.ok(bob, alice, 2100, "repo", "edit", "--add-maintainer", carol.npub(), "--no-lead-maintainer")
	w.seed(carol.announce(t, w.id, 2200, role("m", bob, "2200"), role("m", carol, "2200"), maintainersTag(bob, carol)))
	m := w.refused(alice, alice, 2300, cmdutil.ExitRefused, "removal-partitions", "repo", "edit", "--remove-maintainer", bob.npub(), "--no-lead-maintainer")
	if !strings.Contains(m["error"].(map[string]any)["message"].(string), carol.npub()) {
		t.Fatal(m)
	}
}

// "An add that joins another component" is refused, listing every imported person.
func TestAddJoiningAnotherComponentIsRefusedEndToEnd(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100),
		bob.announce(t, w.id, 200, role("m", alice, "200"), role("m", bob, "200"), role("m", dave, "200"), maintainersTag(alice, bob, dave)),
		dave.announce(t, w.id, 300, role("m", bob, "300"), role("m", dave, "300"), maintainersTag(bob, dave)))
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "repository-join", "repo", "edit", "--add-maintainer", bob.npub(), "--force")
	msg := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, dave.npub()+" via "+bob.npub()+" -> "+dave.npub()) || !strings.Contains(msg, "--force is not available for a repository join") {
		t.Fatal(msg)
	}
}

// "If any event ID changed after preview, it aborts and asks the user to
// rerun the intent": a concurrent announcement between preview and signing.
func TestConcurrentChangeBetweenPreviewAndPublishAborts(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 2)
	w.seed(alice.announce(t, w.id, 100))
	w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
	w.seams.BeforeRecheck = func() {
		w.seed(bob.announce(t, w.id, 1500, role("M", alice, "1500"), role("m", bob, "1500"), maintainersTag(alice, bob)))
	}
	stored := w.storedCount() + len(w.relays) // the concurrent event itself, on every relay
	r := w.run(alice, alice, 2000, "repo", "edit", "--add-maintainer", carol.npub(), "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"code": "concurrent-change"`) || !strings.Contains(r.Out, "rerun the command") ||
		!strings.Contains(r.Out, "announcement of "+bob.npub()) {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if w.storedCount() != stored {
		t.Fatalf("relays stored %d events, want %d: something was published", w.storedCount(), stored)
	}
	w.wantLatest(alice, role("M", alice), role("m", bob, "1000"), projection(alice, bob))
}

// Exit 4: a write needs complete answers from every relay; nothing is published.
func TestIncompleteRelayEvidenceIsExit4(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 2)
	w.seed(alice.announce(t, w.id, 100))
	w.relays[1].SetSilent(true)
	before := w.storedCount()
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--json", "--timeout", "1s")
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("exit %d, want 4\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if w.storedCount() != before {
		t.Fatal("published on incomplete evidence")
	}
}

// Exit 6: the event was published but the read-back did not complete.
func TestUnverifiedPublishIsExit6(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 2)
	w.seed(alice.announce(t, w.id, 100))
	w.seams.AfterPublish = func() { w.relays[1].SetSilent(true) }
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--json", "--timeout", "1s")
	if r.Code != cmdutil.ExitUnverified || !strings.Contains(r.Out, `"code": "unverified"`) {
		t.Fatalf("exit %d, want 6\n%s\n%s", r.Code, r.Out, r.Err)
	}
}

// "Membership preflight rechecks every announcement and kind 30618 event ID
// used by the preview immediately before signing. A concurrent graph or
// state change aborts the operation": new state between preview and signing.
func TestConcurrentStateChangeBetweenPreviewAndPublishAborts(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	// The previewed state's commit is on the advertised Git server, so the
	// change gets past the object check to the recheck.
	work := newGitWork(t)
	bare, cloneURL := newBareServer(t)
	first := work.commit("first")
	work.pushTo(bare, "main")
	w.seed(alice.announce(t, w.id, 100, nostr.Tag{"clone", cloneURL}), alice.state(t, w.id, 110, first))
	w.seams.BeforeRecheck = func() { w.seed(alice.state(t, w.id, 1500, strings.Repeat("b", 40))) }
	stored := w.storedCount() // the concurrent state replaces the old one
	r := w.run(alice, alice, 2000, "repo", "edit", "--add-maintainer", bob.npub(), "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"code": "concurrent-change"`) || !strings.Contains(r.Out, "repository state of "+alice.npub()) {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if w.storedCount() != stored {
		t.Fatalf("relays stored %d events, want %d: something was published", w.storedCount(), stored)
	}
	w.wantLatest(alice, nostr.Tag{"clone", cloneURL}) // still the role-less announcement
}
