package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// previewOut is a --dry-run preview's JSON (roster.preview/v1) with the
// facts left to each test.
type previewOut[F any] struct {
	report.ConsequencePreview
	Facts F `json:"facts"`
}

// untouched fails the test when the relay received any event since before
// (EventCount counts every EVENT a client sent, accepted or not).
func untouched(t *testing.T, what string, before, after int) {
	t.Helper()
	if after != before {
		t.Fatalf("%s sent %d event(s) to the relay; a dry run sends none", what, after-before)
	}
}

// Rule: `project delete --dry-run` says that the deletion cannot be undone
// and what it removes (the home channel, the related channels, the member
// repositories), publishes nothing and exits 0; the deletion run after it
// makes the tombstone at the revision the preview named.
func TestProjectDeleteDryRunSaysItCannotBeUndoneAndWhatItRemoves(t *testing.T) {
	t.Parallel()
	w := clitest.HomeWorld(t, clitest.PcOwnerSK)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	if r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA); r.Code != cmdutil.ExitOK {
		t.Fatalf("relate: exit %d %s", r.Code, r.Err)
	}
	before, events := w.Stored(), w.Relay.EventCount()
	text := w.As(clitest.PcOwnerSK, "project", "delete", w.Coord.String(), "--dry-run")
	if text.Code != cmdutil.ExitOK {
		t.Fatalf("dry run: exit %d\n%s%s", text.Code, text.Out, text.Err)
	}
	for _, want := range []string{"nothing was signed or sent", "cannot be undone", "#roster-home (" + clitest.PcHome + ")", clitest.PcChanA,
		"the related channels others added do not come back", "not deleted"} {
		if !strings.Contains(text.Out, want) {
			t.Errorf("the preview does not say %q:\n%s", want, text.Out)
		}
	}
	js := w.As(clitest.PcOwnerSK, "project", "delete", w.Coord.String(), "--dry-run", "--json")
	p := clitest.DecodeOut[previewOut[projectDeleteFactsOut]](t, js)
	if js.Code != cmdutil.ExitOK || p.Schema != report.ConsequencePreviewSchema || !p.DryRun || p.Command != "project delete" || p.Facts.Undoable ||
		p.Facts.Revision != before.Revision || p.Facts.RevisionAfter != before.Revision+1 || len(p.Facts.RelatedChannels) != 1 || p.Facts.RelatedChannels[0] != clitest.PcChanA ||
		p.Facts.HomeChannel == nil || *p.Facts.HomeChannel != clitest.PcHome || len(p.Consequences) == 0 {
		t.Fatalf("exit %d %+v", js.Code, p)
	}
	untouched(t, "project delete --dry-run", events, w.Relay.EventCount())
	if st := w.Stored(); st.Revision != before.Revision || st.Deleted {
		t.Fatalf("a dry run changed the project: %+v", st)
	}
	// The deletion itself does what the preview said.
	if r := w.As(clitest.PcOwnerSK, "project", "delete", w.Coord.String()); r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "cannot be undone") {
		t.Fatalf("delete: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if st := w.Stored(); !st.Deleted || st.Revision != p.Facts.RevisionAfter {
		t.Fatalf("after delete %+v, want a tombstone at revision %d", st, p.Facts.RevisionAfter)
	}
}

type projectDeleteFactsOut struct {
	Revision        int64    `json:"revision"`
	RevisionAfter   int64    `json:"revision_after"`
	HomeChannel     *string  `json:"home_channel"`
	RelatedChannels []string `json:"related_channels"`
	Undoable        bool     `json:"undoable"`
}

type projectHomeFactsOut struct {
	HomeBefore      *string `json:"home_channel_before"`
	HomeAfter       *string `json:"home_channel_after"`
	MayChangeBefore []struct {
		Pubkey string   `json:"pubkey"`
		Roles  []string `json:"roles"`
	} `json:"may_change_before"`
	MayChangeAfter []struct {
		Pubkey string   `json:"pubkey"`
		Roles  []string `json:"roles"`
	} `json:"may_change_after"`
	SignerMembership   string `json:"signer_membership"`
	ConfirmationNeeded bool   `json:"confirmation_needed"`
}

// Rule: `project update --home-channel --dry-run` names who will be able
// to change the project's related channels (the channel's owners and
// admins, by name and role, the channel by its relay-signed name) and
// publishes nothing; the update after it binds the channel, and the admin
// it named may then change the related channels.
func TestProjectHomeChannelDryRunNamesWhoGainsAuthority(t *testing.T) {
	t.Parallel()
	w := clitest.HomeWorld(t, clitest.PcOwnerSK)
	w.Identity(nostr.Now() - 10)
	admin := clitest.PubOf(t, clitest.PcAdminSK)
	adminNpub := render.WsPerson(admin, "").Npub
	before, events := w.Stored(), w.Relay.EventCount()
	text := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--home-channel", clitest.PcHome, "--dry-run")
	if text.Code != cmdutil.ExitOK {
		t.Fatalf("dry run: exit %d\n%s%s", text.Code, text.Out, text.Err)
	}
	// No profiles here: people are their npubs.
	if !strings.Contains(text.Out, adminNpub+" (admin)") || !strings.Contains(text.Out, "(owner) and ") ||
		!strings.Contains(text.Out, "of #roster-home ("+clitest.PcHome+") will be able to change this project's related channels") {
		t.Fatalf("the preview does not name who gains authority:\n%s", text.Out)
	}
	js := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--home-channel", clitest.PcHome, "--dry-run", "--json")
	p := clitest.DecodeOut[previewOut[projectHomeFactsOut]](t, js)
	gains := map[string]string{}
	for _, m := range p.Facts.MayChangeAfter {
		gains[m.Pubkey] = strings.Join(m.Roles, ",")
	}
	if js.Code != cmdutil.ExitOK || p.Command != "project update" || p.Facts.HomeBefore != nil || p.Facts.HomeAfter == nil || *p.Facts.HomeAfter != clitest.PcHome ||
		gains[admin] != "admin" || gains[w.Coord.Owner] != "owner" || p.Facts.SignerMembership != "member" || p.Facts.ConfirmationNeeded {
		t.Fatalf("exit %d %+v", js.Code, p)
	}
	untouched(t, "project update --home-channel --dry-run", events, w.Relay.EventCount())
	if st := w.Stored(); st.Revision != before.Revision || st.Document.HomeChannel != "" {
		t.Fatalf("a dry run changed the project: %+v", st.Document)
	}
	// The owner is a member of the channel: no --yes needed in a pipe.
	if r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--home-channel", clitest.PcHome); r.Code != cmdutil.ExitOK {
		t.Fatalf("update: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if st := w.Stored(); st.Document.HomeChannel != clitest.PcHome {
		t.Fatalf("home channel %q", st.Document.HomeChannel)
	}
	if r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA); r.Code != cmdutil.ExitOK {
		t.Fatalf("the admin the preview named could not relate: exit %d %s", r.Code, r.Err)
	}
	// Removing the home channel again says who loses authority.
	lose := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--home-channel", "", "--dry-run")
	if lose.Code != cmdutil.ExitOK || !strings.Contains(lose.Out, adminNpub+" (admin) of the current home channel #roster-home") ||
		!strings.Contains(lose.Out, "will no longer be able to change them") {
		t.Fatalf("exit %d\n%s", lose.Code, lose.Out)
	}
}

// Rule: binding a project to a home channel the signer is not a member of
// is refused off a terminal without --yes (exit 2, confirmation-required,
// the fix named), publishing nothing; --dry-run says so and exits 0; with
// --yes the binding is published.
func TestProjectHomeChannelBindingWithoutMembershipNeedsYesInAPipe(t *testing.T) {
	t.Parallel()
	w := clitest.HomeWorld(t, clitest.PcAdminSK) // the owner is no member of the channel
	w.Identity(nostr.Now() - 10)
	before, events := w.Stored(), w.Relay.EventCount()
	dry := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--home-channel", clitest.PcHome, "--dry-run", "--json")
	p := clitest.DecodeOut[previewOut[projectHomeFactsOut]](t, dry)
	if dry.Code != cmdutil.ExitOK || !p.Facts.ConfirmationNeeded || p.Facts.SignerMembership != "not-member" {
		t.Fatalf("dry run: exit %d %+v", dry.Code, p)
	}
	r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--home-channel", clitest.PcHome, "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitUsage || e.Error.Code != "confirmation-required" || !strings.Contains(e.Error.Message, "add --yes") ||
		len(e.Error.Commands) != 1 || !strings.Contains(e.Error.Commands[0], "--home-channel "+clitest.PcHome+" --yes") {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
	human := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--home-channel", clitest.PcHome)
	if human.Code != cmdutil.ExitUsage || !strings.Contains(human.Err, "you are not a member of #roster-home ("+clitest.PcHome+")") || !strings.Contains(human.Err, "--yes") {
		t.Fatalf("exit %d\n%s%s", human.Code, human.Out, human.Err)
	}
	untouched(t, "the refused binding", events, w.Relay.EventCount())
	if st := w.Stored(); st.Revision != before.Revision || st.Document.HomeChannel != "" {
		t.Fatalf("the refused binding changed the project: %+v", st.Document)
	}
	if r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--home-channel", clitest.PcHome, "--yes"); r.Code != cmdutil.ExitOK {
		t.Fatalf("--yes: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	if st := w.Stored(); st.Document.HomeChannel != clitest.PcHome {
		t.Fatalf("home channel %q after --yes", st.Document.HomeChannel)
	}
}

type wsRevokeFactsOut struct {
	Revoked struct {
		Pubkey string `json:"pubkey"`
		Role   string `json:"role"`
	} `json:"revoked"`
	Remaining []struct {
		Pubkey string `json:"pubkey"`
	} `json:"remaining_readers"`
	KeyEpochBefore int64 `json:"key_epoch_before"`
	KeyEpochAfter  int64 `json:"key_epoch_after"`
}

// Rule (nip-sw.md "Revoke and rotate"): `workspace revoke --dry-run` says
// what the revocation takes away from whom (the person, their role and
// what it let them do), the key epoch that follows and who keeps the key,
// and sends nothing; the revocation after it does what it said.
func TestWorkspaceRevokeDryRunSaysWhatItTakesAwayFromWhom(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwMoverSK), "--role", "mover")
	w.MustAs(clitest.SwOwnerSK, "workspace", "grant", w.Npub(clitest.SwViewerSK), "--role", "viewer")
	before, events := w.Stored(), w.Relay.EventCount()
	text := w.MustAs(clitest.SwOwnerSK, "workspace", "revoke", w.Npub(clitest.SwMoverSK), "--dry-run")
	for _, want := range []string{w.Npub(clitest.SwMoverSK) + " (mover) loses access", "move channels", "from epoch 1 to 2",
		"the 1 remaining reader(s): " + w.Npub(clitest.SwViewerSK) + " (viewer)", "cannot be erased"} {
		if !strings.Contains(text.Out, want) {
			t.Errorf("the preview does not say %q:\n%s", want, text.Out)
		}
	}
	p := clitest.DecodeOut[previewOut[wsRevokeFactsOut]](t, w.MustAs(clitest.SwOwnerSK, "workspace", "revoke", w.Npub(clitest.SwMoverSK), "--dry-run", "--json"))
	if p.Command != "workspace revoke" || p.Facts.Revoked.Pubkey != clitest.PubOf(t, clitest.SwMoverSK) || p.Facts.Revoked.Role != "mover" ||
		p.Facts.KeyEpochAfter != before.KeyEpoch+1 || len(p.Facts.Remaining) != 1 || p.Facts.Remaining[0].Pubkey != clitest.PubOf(t, clitest.SwViewerSK) {
		t.Fatalf("%+v", p)
	}
	untouched(t, "workspace revoke --dry-run", events, w.Relay.EventCount())
	if st := w.Stored(); st.Revision != before.Revision || st.KeyEpoch != before.KeyEpoch {
		t.Fatalf("a dry run changed the workspace: revision %d, epoch %d", st.Revision, st.KeyEpoch)
	}
	// Someone without a grant is refused as the revocation would refuse it.
	if r := w.As(clitest.SwOwnerSK, "workspace", "revoke", w.Npub(clitest.SwOutsiderSK), "--dry-run", "--json"); r.Code != cmdutil.ExitRefused ||
		clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != "invalid-command" {
		t.Fatalf("revoking an outsider: exit %d %s", r.Code, r.Out)
	}
	real := w.MustAs(clitest.SwOwnerSK, "workspace", "revoke", w.Npub(clitest.SwMoverSK))
	if !strings.Contains(real.Out, "(mover) loses access") {
		t.Fatalf("the revocation does not say what it takes away before acting:\n%s", real.Out)
	}
	st := w.Stored()
	if st.KeyEpoch != p.Facts.KeyEpochAfter {
		t.Fatalf("epoch %d after the revocation, the preview said %d", st.KeyEpoch, p.Facts.KeyEpochAfter)
	}
	for _, tag := range w.Relay.Stored(nostr.Filter{Kinds: []int{sections.KindProjection}})[0].Tags {
		if len(tag) > 1 && tag[0] == "p" && tag[1] == clitest.PubOf(t, clitest.SwMoverSK) {
			t.Fatal("the revoked mover is still a reader of the projection")
		}
	}
}

type wsRemoveFactsOut struct {
	Section struct {
		ID    string `json:"id"`
		Label string `json:"label"`
	} `json:"section"`
	Unassigned []string `json:"unassigned_channels"`
}

// Rule (nip-sw.md, kind 9054): `workspace section remove --dry-run` names
// the section and every channel that becomes unassigned, and sends nothing;
// the removal after it leaves exactly those channels in no section.
func TestWorkspaceSectionRemoveDryRunNamesTheChannelsThatBecomeUnassigned(t *testing.T) {
	t.Parallel()
	w := clitest.ImportedWorld(t)
	lf := sectionstest.Load(t).Legacy(t)
	before, events := w.Stored(), w.Relay.EventCount()
	var inSection []string
	for _, as := range before.Assignments {
		if as.SectionID == lf.ChannelTo {
			inSection = append(inSection, as.ChannelID)
		}
	}
	if len(inSection) == 0 {
		t.Fatal("the fixture assigns no channel to the section")
	}
	text := w.MustAs(clitest.SwOwnerSK, "workspace", "section", "remove", lf.ChannelTo, "--dry-run")
	if !strings.Contains(text.Out, "become unassigned") || !strings.Contains(text.Out, lf.Channel) || !strings.Contains(text.Out, "nothing was signed or sent") {
		t.Fatalf("the preview does not name the channels that become unassigned:\n%s", text.Out)
	}
	p := clitest.DecodeOut[previewOut[wsRemoveFactsOut]](t, w.MustAs(clitest.SwOwnerSK, "workspace", "section", "remove", lf.ChannelTo, "--dry-run", "--json"))
	if p.Command != "workspace section remove" || p.Facts.Section.ID != lf.ChannelTo || strings.Join(p.Facts.Unassigned, ",") != strings.Join(inSection, ",") {
		t.Fatalf("%+v, want unassigned %v", p, inSection)
	}
	untouched(t, "workspace section remove --dry-run", events, w.Relay.EventCount())
	if st := w.Stored(); st.Revision != before.Revision || len(st.Assignments) != len(before.Assignments) {
		t.Fatalf("a dry run changed the workspace: %+v", st)
	}
	w.MustAs(clitest.SwOwnerSK, "workspace", "section", "remove", lf.ChannelTo)
	for _, as := range w.Stored().Assignments {
		for _, ch := range p.Facts.Unassigned {
			if as.ChannelID == ch {
				t.Fatalf("channel %s is still assigned after the removal", ch)
			}
		}
	}
}

type groupLeaveFactsOut struct {
	WouldSend bool     `json:"would_send"`
	RolesLost []string `json:"roles_lost"`
	HomeOf    []string `json:"home_channel_of"`
}

// Rule (nip-29.md "leave request"): `group leave --dry-run` says what
// leaving loses (the roles, the projects whose home channel it is and whose
// related channels the role lets one change) and sends nothing; the leave
// after it removes the member.
func TestGroupLeaveDryRunSaysWhatLeavingLoses(t *testing.T) {
	t.Parallel()
	w := clitest.HomeWorld(t, clitest.PcOwnerSK)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	events := w.Relay.EventCount()
	text := w.As(clitest.PcAdminSK, "group", "leave", clitest.PcHome, "--dry-run")
	if text.Code != cmdutil.ExitOK {
		t.Fatalf("dry run: exit %d\n%s%s", text.Code, text.Out, text.Err)
	}
	for _, want := range []string{"leaves #roster-home (" + clitest.PcHome + ")", "you lose your role(s) there: admin", "home channel of 1 project(s)", "Demo (" + w.Coord.String() + ")"} {
		if !strings.Contains(text.Out, want) {
			t.Errorf("the preview does not say %q:\n%s", want, text.Out)
		}
	}
	js := w.As(clitest.PcAdminSK, "group", "leave", clitest.PcHome, "--dry-run", "--json")
	p := clitest.DecodeOut[previewOut[groupLeaveFactsOut]](t, js)
	if js.Code != cmdutil.ExitOK || p.Command != "group leave" || !p.Facts.WouldSend || strings.Join(p.Facts.RolesLost, ",") != "admin" ||
		len(p.Facts.HomeOf) != 1 || p.Facts.HomeOf[0] != w.Coord.String() {
		t.Fatalf("exit %d %+v", js.Code, p)
	}
	untouched(t, "group leave --dry-run", events, w.Relay.EventCount())
	if n := len(w.StoredKind(grouprelay.KindLeaveRequest, clitest.PubOf(t, clitest.PcAdminSK))); n != 0 {
		t.Fatalf("a dry run stored %d leave request(s)", n)
	}
	real := w.As(clitest.PcAdminSK, "group", "leave", clitest.PcHome)
	if real.Code != cmdutil.ExitOK || !strings.Contains(real.Out, "you lose your role(s) there: admin") || !strings.Contains(real.Out, "left") {
		t.Fatalf("leave: exit %d\n%s%s", real.Code, real.Out, real.Err)
	}
	if r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json"); r.Code != cmdutil.ExitRefused {
		t.Fatalf("after leaving, the former admin could still relate: exit %d %s", r.Code, r.Out)
	}
}

// Rule: on a terminal, binding a project to a channel the signer is not a
// member of asks; anything but yes publishes nothing (exit 2), a typed y
// binds it.
func TestProjectHomeChannelBindingWithoutMembershipAsksOnATerminal(t *testing.T) {
	t.Parallel()
	w := clitest.HomeWorld(t, clitest.PcAdminSK)
	w.Identity(nostr.Now() - 10)
	tty := func(answer string) clitest.Result {
		env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}
		return clitest.Invocation{Env: env, InTTY: true, Stdin: answer}.Roster(t, "project", "update", w.Coord.String(), "--home-channel", clitest.PcHome,
			"--relay", w.Relay.URL(), "--timeout", "5s")
	}
	events := w.Relay.EventCount()
	no := tty("n\n")
	if no.Code != cmdutil.ExitUsage || !strings.Contains(no.Err, "Bind the project to it anyway? [y/N]") || !strings.Contains(no.Err, "not confirmed") {
		t.Fatalf("answer n: exit %d\n%s%s", no.Code, no.Out, no.Err)
	}
	untouched(t, "the unconfirmed binding", events, w.Relay.EventCount())
	if yes := tty("y\n"); yes.Code != cmdutil.ExitOK {
		t.Fatalf("answer y: exit %d\n%s%s", yes.Code, yes.Out, yes.Err)
	}
	if st := w.Stored(); st.Document.HomeChannel != clitest.PcHome {
		t.Fatalf("home channel %q after y", st.Document.HomeChannel)
	}
}
