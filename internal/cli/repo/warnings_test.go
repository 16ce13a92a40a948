package repo_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// readAs runs `roster repo` (human) against one relay holding events, as viewer.
//
// Every command an advisory names carries the read's --repo and --relay,
// so it runs as printed; readAs checks that and returns stderr without
// them, so the tests below compare the advisories' own words.
func readAs(t *testing.T, viewer *clitest.Person, selected clitest.Person, events ...*nostr.Event) clitest.Result {
	t.Helper()
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), events...)
	env := clitest.TestEnv(t)
	if viewer != nil {
		env = clitest.WithKey(env, *viewer)
	}
	r := clitest.Invocation{Env: env}.Roster(t, "repo", "--repo", selected.Naddr("proj"), "--relay", relays[0].URL())
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	sel := " --repo " + selected.Naddr("proj") + " --relay " + relays[0].URL()
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
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Carol, "300", "400"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Carol.Announce(t, "proj", 1002, clitest.Role("M", clitest.Alice, "300"), clitest.Role("m", clitest.Carol, "300"), clitest.MaintainersTag(clitest.Alice, clitest.Carol)),
	}
	want := "error: " + clitest.Alice.Npub() + " no longer lists you as a maintainer of this repository\n" +
		"update your announcement and retain its history with: roster repo follow-lead"
	if r := readAs(t, &clitest.Carol, clitest.Alice, events...); !strings.Contains(r.Err, want) {
		t.Fatalf("carol's stderr lacks the removal warning:\n%s", r.Err)
	}
	// It is about the viewer's own announcement: Bob is not told.
	if r := readAs(t, &clitest.Bob, clitest.Alice, events...); strings.Contains(r.Err, "no longer lists you") {
		t.Fatalf("bob was told he was removed:\n%s", r.Err)
	}
}

// maintainers.md "The compatibility roster contradicts indexed roles": the
// author of the bad announcement is warned with missing and extra pubkeys and
// the one repair command; other viewers are not.
func TestWarningProjectionMismatchForViewersOwnAnnouncement(t *testing.T) {
	t.Parallel()
	events := []*nostr.Event{
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Carol)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
	}
	want := "your repository announcement has an inconsistent `maintainers` compatibility tag\n" +
		"indexed `M` and `m` roles are authoritative\n\n" +
		"missing active roles: " + clitest.Bob.Npub() + "\n" +
		"listed without an active role: " + clitest.Carol.Npub() + "\n\n" +
		"repair only the compatibility tag with:\n  roster repo edit --fix-maintainers\n\n" +
		"this repair does not add or remove active maintainers"
	if r := readAs(t, &clitest.Alice, clitest.Alice, events...); !strings.Contains(r.Err, want) {
		t.Fatalf("alice's stderr lacks the projection warning:\n%s", r.Err)
	}
	if r := readAs(t, &clitest.Bob, clitest.Alice, events...); strings.Contains(r.Err, "inconsistent `maintainers`") {
		t.Fatalf("bob was warned about alice's announcement:\n%s", r.Err)
	}
	if r := readAs(t, nil, clitest.Alice, events...); r.Err != "" {
		t.Fatalf("nobody signed in, nothing to warn about, got:\n%s", r.Err)
	}
}

// maintainers.md "Recommended defaults": "A confirmed maintainer who already
// selected Bob but still points through Alice instead sees: your maintainer
// announcement still reaches bob/my-repo through alice/my-repo".
func TestWarningIndirectLeadPointerForViewer(t *testing.T) {
	t.Parallel()
	events := []*nostr.Event{
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Erin, "500"), clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Erin)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Erin.Announce(t, "proj", 1002, clitest.Role("M", clitest.Bob, "500"), clitest.Role("m", clitest.Erin, "500"), clitest.MaintainersTag(clitest.Bob, clitest.Erin)),
	}
	want := "your maintainer announcement still reaches " + clitest.Alice.Npub() + "/proj through " + clitest.Bob.Npub() + "/proj\n" +
		"point directly to the lead with: roster repo follow-lead"
	if r := readAs(t, &clitest.Erin, clitest.Alice, events...); !strings.Contains(r.Err, want) {
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
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
	}
	r := readAs(t, &clitest.Alice, clitest.Alice, events...)
	if !strings.Contains(r.Out, "record it with: roster repo edit --acknowledge-maintainer-change "+clitest.Bob.Npub()) {
		t.Fatalf("the pending acknowledgement is not in the human output:\n%s", r.Out)
	}
	if n := strings.Count(r.Out+r.Err, "--acknowledge-maintainer-change"); n != 1 {
		t.Fatalf("the acknowledgement command is printed %d times, want once:\n%s\n%s", n, r.Out, r.Err)
	}
	if !strings.Contains(r.Out, "(1 under pending)") {
		t.Fatalf("the health summary does not say the finding is under pending:\n%s", r.Out)
	}
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(), events...)
	h := clitest.Invocation{Env: clitest.WithKey(clitest.TestEnv(t), clitest.Alice)}.Roster(t, "repo", "health", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	want := clitest.Bob.Npub() + " accepted maintainership at 1970-01-01 00:03:20 UTC.\n" +
		"record this in your replicated membership history with:\n" +
		"  roster repo edit --acknowledge-maintainer-change " + clitest.Bob.Npub()
	if !strings.Contains(h.Err, want) {
		t.Fatalf("repo health's stderr lacks the acknowledgement guidance:\n%s", h.Err)
	}
}

// maintainers.md "A co-maintainer actively assigns a third party": both the
// co-maintainer and the lead are warned, with the text depending on whether
// the lead's roster already covers the subject.
func TestWarningThirdPartyAssignmentToBothSigners(t *testing.T) {
	t.Parallel()
	bobAssigns := clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Carol, "300"),
		clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Carol))
	carolAccepts := clitest.Carol.Announce(t, "proj", 1002, clitest.Role("M", clitest.Alice, "300"), clitest.Role("m", clitest.Carol, "300"), clitest.MaintainersTag(clitest.Alice, clitest.Carol))
	covering := clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Carol, "300"), clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Carol))
	notCovering := clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob))

	cases := []struct {
		name   string
		lead   *nostr.Event
		viewer clitest.Person
		want   string
	}{
		{"covered, co-maintainer", covering, clitest.Bob,
			"your announcement directly assigns " + clitest.Carol.Npub() + " in a lead-shaped repository\n" +
				"let " + clitest.Alice.Npub() + " manage the co-maintainer roster by running:\n  roster repo follow-lead"},
		{"covered, lead", covering, clitest.Alice,
			clitest.Bob.Npub() + " directly assigns " + clitest.Carol.Npub() + " instead of following your lead roster\n" +
				"ask " + clitest.Bob.Npub() + " to repair their announcement with:\n  roster repo follow-lead"},
		{"not covered, co-maintainer", notCovering, clitest.Bob,
			"your announcement directly assigns " + clitest.Carol.Npub() + ", but the lead does not\n" +
				"ask " + clitest.Alice.Npub() + " to run:\n  roster repo edit --add-maintainer " + clitest.Carol.Npub() + "\n" +
				"then repair your announcement with:\n  roster repo follow-lead"},
		{"not covered, lead", notCovering, clitest.Alice,
			"first retain " + clitest.Carol.Npub() + " through the lead roster with:\n  roster repo edit --add-maintainer " + clitest.Carol.Npub() + "\n" +
				clitest.Bob.Npub() + " directly assigns " + clitest.Carol.Npub() + " instead of following your lead roster"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			viewer := c.viewer
			r := readAs(t, &viewer, clitest.Alice, c.lead, bobAssigns, carolAccepts)
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
	bobAssigns := clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Carol, "300"),
		clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Carol))
	carolAccepts := clitest.Carol.Announce(t, "proj", 1002, clitest.Role("M", clitest.Alice, "300"), clitest.Role("m", clitest.Carol, "300"), clitest.MaintainersTag(clitest.Alice, clitest.Carol))
	moderatorOnly := clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.Role("o", clitest.Carol, "300"), clitest.MaintainersTag(clitest.Alice, clitest.Bob))
	for viewer, want := range map[clitest.Person]string{
		clitest.Bob: "your announcement directly assigns " + clitest.Carol.Npub() + ", but the lead does not\n" +
			"ask " + clitest.Alice.Npub() + " to run:\n  roster repo edit --add-maintainer " + clitest.Carol.Npub(),
		clitest.Alice: "first retain " + clitest.Carol.Npub() + " through the lead roster with:\n  roster repo edit --add-maintainer " + clitest.Carol.Npub(),
	} {
		r := readAs(t, &viewer, clitest.Alice, moderatorOnly, bobAssigns, carolAccepts)
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
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "0", "defer"), clitest.MaintainersTag(clitest.Alice)),
	}
	want := "your announcement does not contain an active maintainer acceptance\n" +
		"the lead relationship and your self-role must both be active\n" +
		"accept the current invitation with: roster repo accept"
	if r := readAs(t, &clitest.Bob, clitest.Alice, events...); !strings.Contains(r.Err, want) {
		t.Fatalf("bob's stderr lacks the acceptance guidance:\n%s", r.Err)
	}
}

// maintainers.md: an invitee "has no maintainer authority until they
// accept" and accepts with `repo accept`. The invited viewer is told how;
// a confirmed maintainer and an anonymous reader are not.
func TestWarningInvitedViewerIsToldToAccept(t *testing.T) {
	t.Parallel()
	events := clitest.LeadShaped(t, "proj") // carol is invited, bob confirmed
	want := "you are invited to maintain " + clitest.Alice.Npub() + "/proj; you have no maintainer authority until you accept\n" +
		"accept with: roster repo accept"
	if r := readAs(t, &clitest.Carol, clitest.Alice, events...); !strings.Contains(r.Err, want) {
		t.Fatalf("carol's stderr lacks the invitation guidance:\n%s", r.Err)
	}
	for _, viewer := range []*clitest.Person{&clitest.Bob, nil} {
		if r := readAs(t, viewer, clitest.Alice, events...); strings.Contains(r.Err, "you are invited") {
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
	clitest.Publish(t, relays[0].URL(),
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Carol, "300", "400"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Carol.Announce(t, "proj", 1002, clitest.Role("M", clitest.Alice, "300"), clitest.Role("m", clitest.Carol, "300"), clitest.MaintainersTag(clitest.Alice, clitest.Carol)),
	)
	env := clitest.WithKey(clitest.TestEnv(t), clitest.Carol)
	base := []string{"--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL()}
	warning := "error: " + clitest.Alice.Npub() + " no longer lists you as a maintainer of this repository"
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"repo"}, cmdutil.ExitOK},
		{[]string{"repo", "health"}, cmdutil.ExitUnhealthy}, // the removal is an error for carol
	} {
		r := clitest.Invocation{Env: env}.Roster(t, append(c.args, base...)...)
		if r.Code != c.code || !strings.Contains(r.Err, warning) {
			t.Errorf("roster %s: exit %d (want %d), stderr lacks the removal warning:\n%s", strings.Join(c.args, " "), r.Code, c.code, r.Err)
		}
		j := clitest.Invocation{Env: env}.Roster(t, append(append(c.args, "--json"), base...)...)
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
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200", "500"), clitest.MaintainersTag(clitest.Alice)),
	}
	r := readAs(t, &clitest.Bob, clitest.Alice, events...)
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
	clitest.Publish(t, relays[0].URL(), clitest.LeadShaped(t, "proj")...)
	r := clitest.Invocation{Env: clitest.WithKey(clitest.TestEnv(t), clitest.Carol)}.Roster(t, "repo", "--repo", clitest.Alice.Naddr("proj"), "--relay", relays[0].URL())
	want := "accept with: roster repo accept --repo " + clitest.Alice.Naddr("proj") + " --relay " + relays[0].URL()
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, want) {
		t.Fatalf("exit %d; stderr lacks %q:\n%s", r.Code, want, r.Err)
	}
}
