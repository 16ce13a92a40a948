package project_test

import (
	"os"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/project"
	"github.com/roster-cli/roster/report"
)

// The owner starts from nothing: create publishes the owner-signed kind
// 30621 with d, name, description and buzz-channel; the relay materializes
// revision 1 and roster reads it back.
func TestProjectCreatePublishesTheOwnerSignedIdentity(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Coord.D = "fresh"
	r := w.As(clitest.PcOwnerSK, "project", "create", "fresh", "--name", "Fresh", "--description", "from nothing", "--home-channel", strings.ToUpper(clitest.PcHome), "--yes", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.ProjectIdentity](t, r)
	if out.Schema != "roster.project.identity/v1" || out.Command != "create" || out.Revision != 1 || out.RevisionBefore != 0 || out.Kind != 30621 {
		t.Fatalf("%+v", out)
	}
	if c, hints, err := project.ProjectParseArg(out.Naddr); err != nil || c != w.Coord || len(hints) != 1 || hints[0] != w.Relay.URL() {
		t.Fatalf("naddr %s: %v %v %v", out.Naddr, c, hints, err)
	}
	ident := w.StoredIdentity()
	want := nostr.Tags{{"d", "fresh"}, {"name", "Fresh"}, {"description", "from nothing"}, {"buzz-channel", clitest.PcHome}}
	if ident.ID != out.EventID || ident.PubKey != w.Coord.Owner || len(ident.Tags) != len(want) {
		t.Fatalf("stored identity %+v", ident)
	}
	for i := range want {
		if strings.Join(ident.Tags[i], "\x00") != strings.Join(want[i], "\x00") {
			t.Fatalf("tag %d: %v, want %v", i, ident.Tags[i], want[i])
		}
	}
	if st := w.Stored(); st.Revision != 1 || st.Document.HomeChannel != clitest.PcHome || st.Document.Name != "Fresh" {
		t.Fatalf("stored state %+v", st)
	}
	// Creating it again is refused before signing.
	again := w.As(clitest.PcOwnerSK, "project", "create", "fresh", "--name", "Again", "--json")
	if e := clitest.DecodeOut[clitest.ErrorOut](t, again); again.Code != cmdutil.ExitRefused || e.Error.Code != "project-exists" || !strings.Contains(strings.Join(e.Error.Commands, "\n"), "project update") {
		t.Fatalf("second create: exit %d %s", again.Code, again.Out)
	}
	if w.Stored().Revision != 1 {
		t.Fatal("the refused create changed the project")
	}
}

// update publishes a newer identity that keeps every other tag in order,
// and the relay keeps the collaboratively related channels; only the owner
// may, an admin of the home channel and an outsider are refused before
// signing.
func TestProjectUpdateKeepsOtherTagsAndOnlyTheOwnerMay(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome}, nostr.Tag{"x-extension", "kept", "verbatim"}, nostr.Tag{"description", "old"})
	w.Group(clitest.PcOwnerSK, 9007)
	w.Group(clitest.PcOwnerSK, 9000, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	if r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA); r.Code != cmdutil.ExitOK {
		t.Fatalf("admin relate: exit %d %s", r.Code, r.Err)
	}
	before := w.Stored()
	for _, sk := range []string{clitest.PcAdminSK, clitest.PcStrangerSK} {
		r := w.As(sk, "project", "update", w.Coord.String(), "--name", "Hijacked", "--json")
		if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != cmdutil.ExitRefused || e.Error.Code != "not-owner" {
			t.Fatalf("non-owner update: exit %d %s", r.Code, r.Out)
		}
	}
	if w.Stored().Revision != before.Revision {
		t.Fatal("a refused update changed the project")
	}
	r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--name", "Renamed", "--description", "new", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("owner update: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.ProjectIdentity](t, r)
	if out.RevisionBefore != before.Revision || out.Revision != before.Revision+1 {
		t.Fatalf("revisions %d -> %d", out.RevisionBefore, out.Revision)
	}
	ident := w.StoredIdentity()
	got := []string{}
	for _, tag := range ident.Tags {
		got = append(got, strings.Join(tag, "="))
	}
	want := "d=demo:with:colons name=Renamed buzz-channel=" + clitest.PcHome + " x-extension=kept=verbatim description=new"
	if strings.Join(got, " ") != want {
		t.Fatalf("updated tags %v, want %s", got, want)
	}
	st := w.Stored()
	if st.Document.Name != "Renamed" || !st.Document.Related(clitest.PcChanA) || ident.ID != st.IdentityEvent {
		t.Fatalf("state after update %+v", st.Document)
	}
	// --home-channel "" removes the home channel, and nothing else.
	if r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--home-channel", ""); r.Code != cmdutil.ExitOK {
		t.Fatalf("remove home: exit %d %s", r.Code, r.Err)
	}
	if st := w.Stored(); st.Document.HomeChannel != "" || st.Document.Name != "Renamed" {
		t.Fatalf("after --home-channel \"\": %+v", st.Document)
	}
}

// delete is a NIP-09 deletion of the identity: the relay tombstones the
// project at the next revision; create recreates it after that.
func TestProjectDeleteTombstonesAndCreateRecreates(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	if r := w.As(clitest.PcStrangerSK, "project", "delete", w.Coord.String()); r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "only the project owner") {
		t.Fatalf("outsider delete: exit %d %s", r.Code, r.Err)
	}
	r := w.As(clitest.PcOwnerSK, "project", "delete", w.Coord.String(), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("delete: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.ProjectIdentity](t, r)
	if out.Kind != nostr.KindDeletion || !out.Project.Deleted || out.Revision != 2 {
		t.Fatalf("%+v", out)
	}
	dels := w.Relay.Stored(nostr.Filter{Kinds: []int{nostr.KindDeletion}})
	if len(dels) != 1 || dels[0].Tags.GetFirst([]string{"a", w.Coord.String()}) == nil || dels[0].Tags.GetFirst([]string{"k", "30621"}) == nil {
		t.Fatalf("stored deletions %+v", dels)
	}
	if st := w.Stored(); !st.Deleted {
		t.Fatal("the relay did not tombstone the project")
	}
	// Deleting or updating the tombstone is refused; create recreates it.
	if r := w.As(clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--name", "x", "--json"); clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != "project-deleted" || r.Code != cmdutil.ExitRefused {
		t.Fatalf("update of a deleted project: exit %d %s", r.Code, r.Out)
	}
	if r := w.As(clitest.PcOwnerSK, "project", "create", w.Coord.D, "--name", "Back"); r.Code != cmdutil.ExitOK {
		t.Fatalf("recreate: exit %d %s", r.Code, r.Err)
	}
	if st := w.Stored(); st.Deleted || st.Revision != 3 || st.Document.Name != "Back" {
		t.Fatalf("recreated %+v", st)
	}
}

// The project's home channel is --home-channel, so roster's own --home
// (its home directory) works on project create and update as everywhere.
func TestProjectCommandsTakeRostersHomeAndTheHomeChannelApart(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Coord.D = "homes"
	home := t.TempDir()
	r := w.As(clitest.PcOwnerSK, "project", "create", "homes", "--name", "Homes", "--home-channel", clitest.PcHome, "--yes", "--home", home, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.ProjectIdentity](t, r)
	if out.Project.HomeChannel == nil || *out.Project.HomeChannel != clitest.PcHome {
		t.Fatalf("home channel %v, want %q", out.Project.HomeChannel, clitest.PcHome)
	}
	entries, err := os.ReadDir(home)
	if err != nil || len(entries) == 0 {
		t.Fatalf("--home %s was not used as roster's home: %v %v", home, entries, err)
	}
}
