package main

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// readAs runs `roster repo` (human) against one relay holding events, as viewer.
//
// Every command an advisory names carries the read's --repo and --relay,
// so it runs as printed; readAs checks that and returns stderr without
// them, so the tests below compare the advisories' own words.
func readAs(t *testing.T, viewer *person, selected person, events ...*nostr.Event) result {
	t.Helper()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publish(t, relays[0].URL(), events...)
	env := testEnv(t)
	if viewer != nil {
		env = withKey(env, *viewer)
	}
	r := invocation{Env: env}.roster(t, "repo", "--repo", selected.naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	sel := " --repo " + selected.naddr("proj") + " --relay " + relays[0].URL()
	for _, l := range strings.Split(r.Err, "\n") {
		if strings.Contains(l, "roster repo") && !strings.HasSuffix(l, sel) {
			t.Errorf("advisory command without the read's selectors: %q", l)
		}
	}
	r.Err = strings.ReplaceAll(r.Err, sel, "")
	return r
}

// maintainers.md "Recommended defaults": "A maintainer removed by the lead
// sees: error: <alice-npub> no longer lists you as a maintainer of this
// repository / update your announcement and retain its history with: ngit repo follow-lead".
func TestWarningRemovedByLeadShownToTheRemovedViewer(t *testing.T) {
	t.Parallel()
	events := []*nostr.Event{
		alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), role("m", carol, "300", "400"), maintainersTag(alice, bob)),
		bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
		carol.announce(t, "proj", 1002, role("M", alice, "300"), role("m", carol, "300"), maintainersTag(alice, carol)),
	}
	want := "error: " + alice.npub() + " no longer lists you as a maintainer of this repository\n" +
		"update your announcement and retain its history with: roster repo follow-lead"
	if r := readAs(t, &carol, alice, events...); !strings.Contains(r.Err, want) {
		t.Fatalf("carol's stderr lacks the removal warning:\n%s", r.Err)
	}
	// It is about the viewer's own announcement: Bob is not told.
	if r := readAs(t, &bob, alice, events...); strings.Contains(r.Err, "no longer lists you") {
		t.Fatalf("bob was told he was removed:\n%s", r.Err)
	}
}

// maintainers.md "The compatibility roster contradicts indexed roles": the
// author of the bad announcement is warned with missing and extra pubkeys and
// the one repair command; other viewers are not.
func TestWarningProjectionMismatchForViewersOwnAnnouncement(t *testing.T) {
	t.Parallel()
	events := []*nostr.Event{
		alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), maintainersTag(alice, carol)),
		bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
	}
	want := "your repository announcement has an inconsistent `maintainers` compatibility tag\n" +
		"indexed `M` and `m` roles are authoritative\n\n" +
		"missing active roles: " + bob.npub() + "\n" +
		"listed without an active role: " + carol.npub() + "\n\n" +
		"repair only the compatibility tag with:\n  roster repo edit --fix-maintainers\n\n" +
		"this repair does not add or remove active maintainers"
	if r := readAs(t, &alice, alice, events...); !strings.Contains(r.Err, want) {
		t.Fatalf("alice's stderr lacks the projection warning:\n%s", r.Err)
	}
	if r := readAs(t, &bob, alice, events...); strings.Contains(r.Err, "inconsistent `maintainers`") {
		t.Fatalf("bob was warned about alice's announcement:\n%s", r.Err)
	}
	if r := readAs(t, nil, alice, events...); r.Err != "" {
		t.Fatalf("nobody signed in, nothing to warn about, got:\n%s", r.Err)
	}
}

// maintainers.md "Recommended defaults": "A confirmed maintainer who already
// selected Bob but still points through Alice instead sees: your maintainer
// announcement still reaches bob/my-repo through alice/my-repo".
func TestWarningIndirectLeadPointerForViewer(t *testing.T) {
	t.Parallel()
	events := []*nostr.Event{
		alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), role("m", erin, "500"), maintainersTag(alice, bob, erin)),
		bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
		erin.announce(t, "proj", 1002, role("M", bob, "500"), role("m", erin, "500"), maintainersTag(bob, erin)),
	}
	want := "your maintainer announcement still reaches " + alice.npub() + "/proj through " + bob.npub() + "/proj\n" +
		"point directly to the lead with: roster repo follow-lead"
	if r := readAs(t, &erin, alice, events...); !strings.Contains(r.Err, want) {
		t.Fatalf("erin's stderr lacks the indirect-pointer warning:\n%s", r.Err)
	}
}

// maintainers.md "Alice records Bob's acceptance": the lead sees persistent
// guidance with the exact acknowledgement command, without a prompt, and
// once per run: `roster repo` gives it in its pending rows only (not again
// among the health findings or on stderr); other commands on stderr.
func TestWarningPendingAcknowledgementForLead(t *testing.T) {
	t.Parallel()
	events := []*nostr.Event{
		alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "100"), maintainersTag(alice, bob)),
		bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
	}
	r := readAs(t, &alice, alice, events...)
	if !strings.Contains(r.Out, "record it with: roster repo edit --acknowledge-maintainer-change "+bob.npub()) {
		t.Fatalf("the pending acknowledgement is not in the human output:\n%s", r.Out)
	}
	if n := strings.Count(r.Out+r.Err, "--acknowledge-maintainer-change"); n != 1 {
		t.Fatalf("the acknowledgement command is printed %d times, want once:\n%s\n%s", n, r.Out, r.Err)
	}
	if !strings.Contains(r.Out, "(1 under pending)") {
		t.Fatalf("the health summary does not say the finding is under pending:\n%s", r.Out)
	}
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publish(t, relays[0].URL(), events...)
	h := invocation{Env: withKey(testEnv(t), alice)}.roster(t, "repo", "health", "--repo", alice.naddr("proj"), "--relay", relays[0].URL())
	want := bob.npub() + " accepted maintainership at 1970-01-01 00:03:20 UTC.\n" +
		"record this in your replicated membership history with:\n" +
		"  roster repo edit --acknowledge-maintainer-change " + bob.npub()
	if !strings.Contains(h.Err, want) {
		t.Fatalf("repo health's stderr lacks the acknowledgement guidance:\n%s", h.Err)
	}
}

// maintainers.md "A co-maintainer actively assigns a third party": both the
// co-maintainer and the lead are warned, with the text depending on whether
// the lead's roster already covers the subject.
func TestWarningThirdPartyAssignmentToBothSigners(t *testing.T) {
	t.Parallel()
	bobAssigns := bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "200"), role("m", carol, "300"),
		maintainersTag(alice, bob, carol))
	carolAccepts := carol.announce(t, "proj", 1002, role("M", alice, "300"), role("m", carol, "300"), maintainersTag(alice, carol))
	covering := alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), role("m", carol, "300"), maintainersTag(alice, bob, carol))
	notCovering := alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), maintainersTag(alice, bob))

	cases := []struct {
		name   string
		lead   *nostr.Event
		viewer person
		want   string
	}{
		{"covered, co-maintainer", covering, bob,
			"your announcement directly assigns " + carol.npub() + " in a lead-shaped repository\n" +
				"let " + alice.npub() + " manage the co-maintainer roster by running:\n  roster repo follow-lead"},
		{"covered, lead", covering, alice,
			bob.npub() + " directly assigns " + carol.npub() + " instead of following your lead roster\n" +
				"ask " + bob.npub() + " to repair their announcement with:\n  roster repo follow-lead"},
		{"not covered, co-maintainer", notCovering, bob,
			"your announcement directly assigns " + carol.npub() + ", but the lead does not\n" +
				"ask " + alice.npub() + " to run:\n  roster repo edit --add-maintainer " + carol.npub() + "\n" +
				"then repair your announcement with:\n  roster repo follow-lead"},
		{"not covered, lead", notCovering, alice,
			"first retain " + carol.npub() + " through the lead roster with:\n  roster repo edit --add-maintainer " + carol.npub() + "\n" +
				bob.npub() + " directly assigns " + carol.npub() + " instead of following your lead roster"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			viewer := c.viewer
			r := readAs(t, &viewer, alice, c.lead, bobAssigns, carolAccepts)
			if !strings.Contains(r.Err, c.want) {
				t.Fatalf("stderr lacks\n%s\ngot:\n%s", c.want, r.Err)
			}
		})
	}
}

// The lead's o:Carol does not cover Bob's m:Carol (graph.LeadCovers):
// converting Bob's edge to history would leave Carol a moderator only, so
// both signers get the uncovered advisory, the same recovery follow-lead's
// refusal gives.
func TestWarningLeadModeratorRoleDoesNotCoverAMaintainerAssignment(t *testing.T) {
	t.Parallel()
	bobAssigns := bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "200"), role("m", carol, "300"),
		maintainersTag(alice, bob, carol))
	carolAccepts := carol.announce(t, "proj", 1002, role("M", alice, "300"), role("m", carol, "300"), maintainersTag(alice, carol))
	moderatorOnly := alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), role("o", carol, "300"), maintainersTag(alice, bob))
	for viewer, want := range map[person]string{
		bob: "your announcement directly assigns " + carol.npub() + ", but the lead does not\n" +
			"ask " + alice.npub() + " to run:\n  roster repo edit --add-maintainer " + carol.npub(),
		alice: "first retain " + carol.npub() + " through the lead roster with:\n  roster repo edit --add-maintainer " + carol.npub(),
	} {
		r := readAs(t, &viewer, alice, moderatorOnly, bobAssigns, carolAccepts)
		if !strings.Contains(r.Err, want) {
			t.Fatalf("stderr lacks\n%s\ngot:\n%s", want, r.Err)
		}
	}
}

// maintainers.md "Ngit's canonical acceptance contains defer": an invitee
// whose only self-role is a simple [m, self, start, defer] is told to accept.
func TestWarningSelfDeferDirectsToAccept(t *testing.T) {
	t.Parallel()
	events := []*nostr.Event{
		alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), maintainersTag(alice, bob)),
		bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "0", "defer"), maintainersTag(alice)),
	}
	want := "your announcement does not contain an active maintainer acceptance\n" +
		"the lead relationship and your self-role must both be active\n" +
		"accept the current invitation with: roster repo accept"
	if r := readAs(t, &bob, alice, events...); !strings.Contains(r.Err, want) {
		t.Fatalf("bob's stderr lacks the acceptance guidance:\n%s", r.Err)
	}
}

// maintainers.md: an invitee "has no maintainer authority until they
// accept" and accepts with `repo accept`. The invited viewer is told how;
// a confirmed maintainer and an anonymous reader are not.
func TestWarningInvitedViewerIsToldToAccept(t *testing.T) {
	t.Parallel()
	events := leadShaped(t, "proj") // carol is invited, bob confirmed
	want := "you are invited to maintain " + alice.npub() + "/proj; you have no maintainer authority until you accept\n" +
		"accept with: roster repo accept"
	if r := readAs(t, &carol, alice, events...); !strings.Contains(r.Err, want) {
		t.Fatalf("carol's stderr lacks the invitation guidance:\n%s", r.Err)
	}
	for _, viewer := range []*person{&bob, nil} {
		if r := readAs(t, viewer, alice, events...); strings.Contains(r.Err, "you are invited") {
			t.Fatalf("%v was told they are invited:\n%s", viewer, r.Err)
		}
	}
}

// Rule (advisory warnings go to stderr after every command, as the spec
// asks; maintainers.md "Recommended defaults": "warn after every ngit or
// Git command in that checkout"); docs/json.md: with --json the same facts
// are structured data. The removal warning follows `roster repo` and `roster
// repo health` alike, and neither --json form prints it on stderr, where the
// finding is in the JSON instead.
func TestAdvisoryWarningsFollowEveryReadCommandButNotJSON(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publish(t, relays[0].URL(),
		alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), role("m", carol, "300", "400"), maintainersTag(alice, bob)),
		bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "200"), maintainersTag(alice, bob)),
		carol.announce(t, "proj", 1002, role("M", alice, "300"), role("m", carol, "300"), maintainersTag(alice, carol)),
	)
	env := withKey(testEnv(t), carol)
	base := []string{"--repo", alice.naddr("proj"), "--relay", relays[0].URL()}
	warning := "error: " + alice.npub() + " no longer lists you as a maintainer of this repository"
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"repo"}, cmdutil.ExitOK},
		{[]string{"repo", "health"}, cmdutil.ExitUnhealthy}, // the removal is an error for carol
	} {
		r := invocation{Env: env}.roster(t, append(c.args, base...)...)
		if r.Code != c.code || !strings.Contains(r.Err, warning) {
			t.Errorf("roster %s: exit %d (want %d), stderr lacks the removal warning:\n%s", strings.Join(c.args, " "), r.Code, c.code, r.Err)
		}
		j := invocation{Env: env}.roster(t, append(append(c.args, "--json"), base...)...)
		if j.Code != c.code || strings.Contains(j.Err, "no longer lists you") {
			t.Errorf("roster %s --json: exit %d (want %d), the advisory leaked to stderr:\n%s", strings.Join(c.args, " "), j.Code, c.code, j.Err)
		}
		if !strings.Contains(j.Out, `"code": "removed-by-lead"`) {
			t.Errorf("roster %s --json: the removal is not in the JSON findings:\n%s", strings.Join(c.args, " "), j.Out)
		}
	}
}

// maintainers.md: a numeric self-role end is a departure, and "a restarted
// assignment after an ended self-role is only an invitation". Right after
// leaving, while the lead still lists them, the leaver is not told "you are
// invited ... accept": they are told they left, and that accepting rejoins.
func TestWarningDepartedViewerIsNotToldTheyAreInvited(t *testing.T) {
	t.Parallel()
	events := []*nostr.Event{
		alice.announce(t, "proj", 1000, role("M", alice), role("m", bob, "200"), maintainersTag(alice, bob)),
		bob.announce(t, "proj", 1001, role("M", alice, "200"), role("m", bob, "200", "500"), maintainersTag(alice)),
	}
	r := readAs(t, &bob, alice, events...)
	if strings.Contains(r.Err, "you are invited") {
		t.Fatalf("the leaver was told they are invited:\n%s", r.Err)
	}
	if !strings.Contains(r.Err, "you ended your maintainer role") || !strings.Contains(r.Err, "roster repo accept") {
		t.Fatalf("the leaver's stderr does not say they left and how to rejoin:\n%s", r.Err)
	}
}

// Suggested commands run as printed: outside a checkout the advisory's
// command carries the --repo and --relay the user gave.
func TestAdvisoryCommandsCarryTheRepoAndRelayFlags(t *testing.T) {
	t.Parallel()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	publish(t, relays[0].URL(), leadShaped(t, "proj")...)
	r := invocation{Env: withKey(testEnv(t), carol)}.roster(t, "repo", "--repo", alice.naddr("proj"), "--relay", relays[0].URL())
	want := "accept with: roster repo accept --repo " + alice.naddr("proj") + " --relay " + relays[0].URL()
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, want) {
		t.Fatalf("exit %d; stderr lacks %q:\n%s", r.Code, want, r.Err)
	}
}
