package main

import (
	"os"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/project"
	"github.com/roster-cli/roster/report"
)

// storedIdentity is the relay's current kind 30621 of the world's project,
// as the projection names it.
func (w *pcWorld) storedIdentity() *nostr.Event {
	w.t.Helper()
	st := w.stored()
	evs := w.relay.Stored(nostr.Filter{IDs: []string{st.IdentityEvent}})
	if len(evs) != 1 {
		w.t.Fatalf("the relay stores no identity %s", st.IdentityEvent)
	}
	return evs[0]
}

// The owner starts from nothing: create publishes the owner-signed kind
// 30621 with d, name, description and buzz-channel; the relay materializes
// revision 1 and roster reads it back.
func TestProjectCreatePublishesTheOwnerSignedIdentity(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.coord.D = "fresh"
	r := w.as(pcOwnerSK, "project", "create", "fresh", "--name", "Fresh", "--description", "from nothing", "--home-channel", strings.ToUpper(pcHome), "--yes", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.ProjectIdentity](t, r)
	if out.Schema != "roster.project.identity/v1" || out.Command != "create" || out.Revision != 1 || out.RevisionBefore != 0 || out.Kind != 30621 {
		t.Fatalf("%+v", out)
	}
	if c, hints, err := project.ProjectParseArg(out.Naddr); err != nil || c != w.coord || len(hints) != 1 || hints[0] != w.relay.URL() {
		t.Fatalf("naddr %s: %v %v %v", out.Naddr, c, hints, err)
	}
	ident := w.storedIdentity()
	want := nostr.Tags{{"d", "fresh"}, {"name", "Fresh"}, {"description", "from nothing"}, {"buzz-channel", pcHome}}
	if ident.ID != out.EventID || ident.PubKey != w.coord.Owner || len(ident.Tags) != len(want) {
		t.Fatalf("stored identity %+v", ident)
	}
	for i := range want {
		if strings.Join(ident.Tags[i], "\x00") != strings.Join(want[i], "\x00") {
			t.Fatalf("tag %d: %v, want %v", i, ident.Tags[i], want[i])
		}
	}
	if st := w.stored(); st.Revision != 1 || st.Document.HomeChannel != pcHome || st.Document.Name != "Fresh" {
		t.Fatalf("stored state %+v", st)
	}
	// Creating it again is refused before signing.
	again := w.as(pcOwnerSK, "project", "create", "fresh", "--name", "Again", "--json")
	if e := decodeOut[errorOut](t, again); again.Code != cmdutil.ExitRefused || e.Error.Code != "project-exists" || !strings.Contains(strings.Join(e.Error.Commands, "\n"), "project update") {
		t.Fatalf("second create: exit %d %s", again.Code, again.Out)
	}
	if w.stored().Revision != 1 {
		t.Fatal("the refused create changed the project")
	}
}

// update publishes a newer identity that keeps every other tag in order,
// and the relay keeps the collaboratively related channels; only the owner
// may, an admin of the home channel and an outsider are refused before
// signing.
func TestProjectUpdateKeepsOtherTagsAndOnlyTheOwnerMay(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome}, nostr.Tag{"x-extension", "kept", "verbatim"}, nostr.Tag{"description", "old"})
	w.group(pcOwnerSK, 9007)
	w.group(pcOwnerSK, 9000, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
	if r := w.as(pcAdminSK, "project", "relate", w.coord.String(), pcChanA); r.Code != cmdutil.ExitOK {
		t.Fatalf("admin relate: exit %d %s", r.Code, r.Err)
	}
	before := w.stored()
	for _, sk := range []string{pcAdminSK, pcStrangerSK} {
		r := w.as(sk, "project", "update", w.coord.String(), "--name", "Hijacked", "--json")
		if e := decodeOut[errorOut](t, r); r.Code != cmdutil.ExitRefused || e.Error.Code != "not-owner" {
			t.Fatalf("non-owner update: exit %d %s", r.Code, r.Out)
		}
	}
	if w.stored().Revision != before.Revision {
		t.Fatal("a refused update changed the project")
	}
	r := w.as(pcOwnerSK, "project", "update", w.coord.String(), "--name", "Renamed", "--description", "new", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("owner update: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.ProjectIdentity](t, r)
	if out.RevisionBefore != before.Revision || out.Revision != before.Revision+1 {
		t.Fatalf("revisions %d -> %d", out.RevisionBefore, out.Revision)
	}
	ident := w.storedIdentity()
	got := []string{}
	for _, tag := range ident.Tags {
		got = append(got, strings.Join(tag, "="))
	}
	want := "d=demo:with:colons name=Renamed buzz-channel=" + pcHome + " x-extension=kept=verbatim description=new"
	if strings.Join(got, " ") != want {
		t.Fatalf("updated tags %v, want %s", got, want)
	}
	st := w.stored()
	if st.Document.Name != "Renamed" || !st.Document.Related(pcChanA) || ident.ID != st.IdentityEvent {
		t.Fatalf("state after update %+v", st.Document)
	}
	// --home-channel "" removes the home channel, and nothing else.
	if r := w.as(pcOwnerSK, "project", "update", w.coord.String(), "--home-channel", ""); r.Code != cmdutil.ExitOK {
		t.Fatalf("remove home: exit %d %s", r.Code, r.Err)
	}
	if st := w.stored(); st.Document.HomeChannel != "" || st.Document.Name != "Renamed" {
		t.Fatalf("after --home-channel \"\": %+v", st.Document)
	}
}

// delete is a NIP-09 deletion of the identity: the relay tombstones the
// project at the next revision; create recreates it after that.
func TestProjectDeleteTombstonesAndCreateRecreates(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	if r := w.as(pcStrangerSK, "project", "delete", w.coord.String()); r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "only the project owner") {
		t.Fatalf("outsider delete: exit %d %s", r.Code, r.Err)
	}
	r := w.as(pcOwnerSK, "project", "delete", w.coord.String(), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("delete: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.ProjectIdentity](t, r)
	if out.Kind != nostr.KindDeletion || !out.Project.Deleted || out.Revision != 2 {
		t.Fatalf("%+v", out)
	}
	dels := w.relay.Stored(nostr.Filter{Kinds: []int{nostr.KindDeletion}})
	if len(dels) != 1 || dels[0].Tags.GetFirst([]string{"a", w.coord.String()}) == nil || dels[0].Tags.GetFirst([]string{"k", "30621"}) == nil {
		t.Fatalf("stored deletions %+v", dels)
	}
	if st := w.stored(); !st.Deleted {
		t.Fatal("the relay did not tombstone the project")
	}
	// Deleting or updating the tombstone is refused; create recreates it.
	if r := w.as(pcOwnerSK, "project", "update", w.coord.String(), "--name", "x", "--json"); decodeOut[errorOut](t, r).Error.Code != "project-deleted" || r.Code != cmdutil.ExitRefused {
		t.Fatalf("update of a deleted project: exit %d %s", r.Code, r.Out)
	}
	if r := w.as(pcOwnerSK, "project", "create", w.coord.D, "--name", "Back"); r.Code != cmdutil.ExitOK {
		t.Fatalf("recreate: exit %d %s", r.Code, r.Err)
	}
	if st := w.stored(); st.Deleted || st.Revision != 3 || st.Document.Name != "Back" {
		t.Fatalf("recreated %+v", st)
	}
}

// The project's home channel is --home-channel, so roster's own --home
// (its home directory) works on project create and update as everywhere.
func TestProjectCommandsTakeRostersHomeAndTheHomeChannelApart(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.coord.D = "homes"
	home := t.TempDir()
	r := w.as(pcOwnerSK, "project", "create", "homes", "--name", "Homes", "--home-channel", pcHome, "--yes", "--home", home, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.ProjectIdentity](t, r)
	if out.Project.HomeChannel == nil || *out.Project.HomeChannel != pcHome {
		t.Fatalf("home channel %v, want %q", out.Project.HomeChannel, pcHome)
	}
	entries, err := os.ReadDir(home)
	if err != nil || len(entries) == 0 {
		t.Fatalf("--home %s was not used as roster's home: %v %v", home, entries, err)
	}
}
