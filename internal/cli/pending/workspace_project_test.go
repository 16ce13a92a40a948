package pending_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/journal"
	"github.com/roster-cli/roster/workspace/sections"
)

// pendingIn runs a `roster pending` command as sk in home (no --relay:
// each write names its relays).
func pendingIn(t *testing.T, home, sk string, args ...string) clitest.Result {
	t.Helper()
	if !slices.Contains(args, "discard") {
		args = append(args, "--timeout", "5s")
	}
	return clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": home}}.Roster(t, args...)
}

// listPendingIn is `roster pending --json` in home.
func listPendingIn(t *testing.T, home, sk string) clitest.PendingJSON {
	t.Helper()
	r := pendingIn(t, home, sk, "pending", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("roster pending: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	var p clitest.PendingJSON
	if err := json.Unmarshal([]byte(r.Out), &p); err != nil || p.Schema != "roster.pending/v1" {
		t.Fatalf("roster pending: %v\n%s", err, r.Out)
	}
	return p
}

// journaledEvent is the one event the journal in home keeps.
func journaledEvent(t *testing.T, home string) *nostr.Event {
	t.Helper()
	files := clitest.JournalFiles(t, home)
	if len(files) != 1 {
		t.Fatalf("the journal holds %d files, want 1", len(files))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var e journal.Entry
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return e.Event
}

// interruptedWrite checks a write that lost its connection after the EVENT:
// exit 6, the error names the journal entry and its resume, and `roster
// pending` lists it as held by no relay and lacking the one relay.
func interruptedWrite(t *testing.T, r clitest.Result, home, sk, relay string) string {
	t.Helper()
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("write with a dropped connection: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	write, _ := e.Error.Details["journal"].(string)
	if len(write) != 64 || !slices.ContainsFunc(e.Error.Commands, func(c string) bool { return strings.HasPrefix(c, "roster pending resume "+write[:12]) }) {
		t.Fatalf("the failure does not name the unfinished write and its resume: %s", r.Out)
	}
	p := listPendingIn(t, home, sk)
	if len(p.Writes) != 1 || p.Writes[0].ID != write || len(p.Writes[0].Events) != 1 {
		t.Fatalf("pending: %+v", p)
	}
	ev := p.Writes[0].Events[0]
	if ev.ID != write || len(ev.Holding) != 0 || !slices.Equal(ev.Lacking, []string{relay}) {
		t.Fatalf("holding %v lacking %v, want none holding and %s lacking", ev.Holding, ev.Lacking, relay)
	}
	if got := journaledEvent(t, home); got.ID != write {
		t.Fatalf("the journal keeps %s, the failure names %s", got.ID, write)
	}
	return write
}

// sectionOf is the section id a kind 9054 section add carries.
func sectionOf(t *testing.T, evt *nostr.Event) string {
	t.Helper()
	cmd, err := sections.ParseCommand(evt)
	if err != nil {
		t.Fatal(err)
	}
	add, ok := cmd.Body.(*sections.ManageSection)
	if !ok {
		t.Fatalf("the kept command is %T, not a section add", cmd.Body)
	}
	return add.SectionID
}

// interruptedSectionAdd: the owner adds a section and the relay loses the
// connection right after the EVENT, before applying it.
func interruptedSectionAdd(t *testing.T) (*clitest.SwWorld, string, *nostr.Event) {
	w := clitest.ImportedWorld(t)
	rev := w.Stored().Revision
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == sections.KindManage }})
	r := w.As(clitest.SwOwnerSK, "workspace", "section", "add", "Later", "--json")
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	home := w.Homes[clitest.SwOwnerSK]
	write := interruptedWrite(t, r, home, clitest.SwOwnerSK, w.Relay.URL())
	evt := journaledEvent(t, home)
	if w.Stored().Revision != rev || w.HasSection(sectionOf(t, evt)) {
		t.Fatal("the dropped section add changed the workspace")
	}
	return w, write, evt
}

// Rule (no signed event on some relays that roster does not know; NIP-SW
// commands are resent as exact retries): a section write whose connection
// drops after the EVENT is kept in the journal; the next write of the
// workspace says so before signing; `roster pending resume` sends the very
// same command, and the relay applies the original section.
func TestAnInterruptedSectionWriteIsResumedAsTheExactSameCommand(t *testing.T) {
	t.Parallel()
	w, write, evt := interruptedSectionAdd(t)
	home := w.Homes[clitest.SwOwnerSK]
	human := pendingIn(t, home, clitest.SwOwnerSK, "pending")
	if human.Code != cmdutil.ExitOK || !strings.Contains(human.Out, "roster workspace section add Later --relay "+w.Relay.URL()) ||
		!strings.Contains(human.Out, "lacking: "+w.Relay.URL()) || !strings.Contains(human.Out, "run: roster pending resume "+write[:12]) {
		t.Fatalf("roster pending:\n%s\n%s", human.Out, human.Err)
	}
	// A refused write of the same workspace still says so first.
	next := w.As(clitest.SwOwnerSK, "workspace", "section", "rename", "Nope", "Other")
	if !strings.Contains(next.Err, "an earlier write of this workspace did not finish") || !strings.Contains(next.Err, "roster pending resume "+write[:12]) {
		t.Fatalf("the next write did not mention the unfinished write:\n%s", next.Err)
	}
	// So does a read of it.
	if read := w.As(clitest.SwOwnerSK, "workspace", "show"); read.Code != cmdutil.ExitOK || !strings.Contains(read.Err, "did not finish") {
		t.Fatalf("workspace show did not mention the unfinished write: exit %d\n%s", read.Code, read.Err)
	}
	rev := w.Stored().Revision
	r := pendingIn(t, home, clitest.SwOwnerSK, "pending", "resume", write[:12], "--json")
	out := clitest.DecodeOut[clitest.PendingResumeJSON](t, r)
	if r.Code != cmdutil.ExitOK || !out.Verified || len(out.Sent[write]) != 1 {
		t.Fatalf("resume: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if w.Stored().Revision != rev+1 || !w.HasSection(sectionOf(t, evt)) {
		t.Fatalf("the relay does not show the original section add (revision %d)", w.Stored().Revision)
	}
	if files := clitest.JournalFiles(t, home); len(files) != 0 {
		t.Fatalf("the verified write is still in the journal: %v", files)
	}
}

// Rule (a resume rechecks before it sends): when the workspace changed
// between the interrupted section write and its resume, the resume sends
// nothing, exits 3 concurrent-change, says no relay holds the event and
// offers the command to rerun; the relay's workspace is untouched.
func TestAResumedSectionWriteIsRefusedAfterACompetingChange(t *testing.T) {
	t.Parallel()
	w, write, evt := interruptedSectionAdd(t)
	home := w.Homes[clitest.SwOwnerSK]
	w.MustAs(clitest.SwOwnerSK, "workspace", "section", "add", "Competing")
	before := w.Stored()
	r := pendingIn(t, home, clitest.SwOwnerSK, "pending", "resume", write[:12], "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitRefused || e.Error.Code != "concurrent-change" || !strings.Contains(e.Error.Message, "no relay is known to hold the event "+write) {
		t.Fatalf("resume after a competing change: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if len(e.Error.Commands) == 0 || !strings.HasPrefix(e.Error.Commands[0], "roster workspace section add Later --relay "+w.Relay.URL()) {
		t.Fatalf("the first command is not the rerun: %v", e.Error.Commands)
	}
	if after := w.Stored(); after.Revision != before.Revision || w.HasSection(sectionOf(t, evt)) {
		t.Fatalf("the refused resume changed the workspace (revision %d -> %d)", before.Revision, after.Revision)
	}
	if files := clitest.JournalFiles(t, home); len(files) != 1 {
		t.Fatalf("the refused resume dropped the entry: %v", files)
	}
}

// interruptedProjectUpdate: the owner renames the project and the relay
// loses the connection right after the EVENT, before materializing it.
func interruptedProjectUpdate(t *testing.T) (*clitest.PcWorld, string, string) {
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"description", "old"})
	before := w.Stored()
	home := t.TempDir()
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == 30621 }})
	r := w.AsIn(home, clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--name", "Renamed", "--json")
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	write := interruptedWrite(t, r, home, clitest.PcOwnerSK, w.Relay.URL())
	if st := w.Stored(); st.Revision != before.Revision || st.IdentityEvent != before.IdentityEvent {
		t.Fatal("the dropped update changed the project")
	}
	return w, write, home
}

// Rule (a NIP-PC replay of the exact accepted event is idempotent within
// the drift window): a project update whose connection drops after the
// EVENT is kept in the journal; the next write of the project says so;
// `roster pending resume` rechecks the Project State it was built on and
// sends the same identity, which the relay materializes.
func TestAnInterruptedProjectUpdateIsResumedWithTheSameEvent(t *testing.T) {
	t.Parallel()
	w, write, home := interruptedProjectUpdate(t)
	before := w.Stored()
	// The next write of the project says so before signing (this one is
	// refused: only the owner may update).
	next := w.AsIn(home, clitest.PcStrangerSK, "project", "update", w.Coord.String(), "--name", "x")
	if !strings.Contains(next.Err, "an earlier write of this project did not finish") || !strings.Contains(next.Err, "roster pending resume "+write[:12]) {
		t.Fatalf("the next write did not mention the unfinished write:\n%s", next.Err)
	}
	if read := w.AsIn(home, clitest.PcOwnerSK, "project", "show", w.Coord.String()); read.Code != cmdutil.ExitOK || !strings.Contains(read.Err, "did not finish") {
		t.Fatalf("project show did not mention the unfinished write: exit %d\n%s", read.Code, read.Err)
	}
	r := pendingIn(t, home, clitest.PcOwnerSK, "pending", "resume", write[:12], "--json")
	out := clitest.DecodeOut[clitest.PendingResumeJSON](t, r)
	if r.Code != cmdutil.ExitOK || !out.Verified || len(out.Sent[write]) != 1 {
		t.Fatalf("resume: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	st := w.Stored()
	if st.IdentityEvent != write || st.Revision != before.Revision+1 || st.Document.Name != "Renamed" {
		t.Fatalf("the relay's Project State %+v does not show the original event %s", st, write)
	}
	if files := clitest.JournalFiles(t, home); len(files) != 0 {
		t.Fatalf("the verified write is still in the journal: %v", files)
	}
}

// Rule (a resume rechecks the stored event ids before it sends): when the
// owner's identity changed between the interrupted update and its resume,
// the resume sends nothing, exits 3 concurrent-change, says which relays
// hold the event and offers the command to rerun; the relay is untouched.
func TestAResumedProjectUpdateIsRefusedAfterACompetingChange(t *testing.T) {
	t.Parallel()
	w, write, home := interruptedProjectUpdate(t)
	w.Identity(nostr.Now()-5, nostr.Tag{"description", "another client"})
	before := w.Stored()
	r := pendingIn(t, home, clitest.PcOwnerSK, "pending", "resume", write[:12], "--json")
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if r.Code != cmdutil.ExitRefused || e.Error.Code != "concurrent-change" || !strings.Contains(e.Error.Message, "no relay is known to hold the event "+write) {
		t.Fatalf("resume after a competing change: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if len(e.Error.Commands) == 0 || !strings.HasPrefix(e.Error.Commands[0], "roster project update "+w.Coord.String()+" --name Renamed --relay "+w.Relay.URL()) {
		t.Fatalf("the first command is not the rerun: %v", e.Error.Commands)
	}
	if st := w.Stored(); st.Revision != before.Revision || st.IdentityEvent != before.IdentityEvent || len(w.Relay.Stored(nostr.Filter{IDs: []string{write}})) != 0 {
		t.Fatalf("the refused resume changed the project: %+v", st)
	}
}

// Rule (NIP-PC's exact replay is bounded by the drift window): an
// unfinished project write older than the acceptance window is never sent
// again; the resume exits 3 pending-expired with the command to rerun.
func TestAResumedProjectWriteOutsideTheDriftWindowIsNotSent(t *testing.T) {
	t.Parallel()
	w, write, home := interruptedProjectUpdate(t)
	before := w.Stored()
	late := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": home},
		Now: time.Now().Add(journal.AcceptanceWindow + time.Minute)}.Roster(t, "pending", "resume", write[:12], "--json", "--timeout", "5s")
	e := clitest.DecodeOut[clitest.ErrorOut](t, late)
	if late.Code != cmdutil.ExitRefused || e.Error.Code != "pending-expired" || len(e.Error.Commands) == 0 || !strings.HasPrefix(e.Error.Commands[0], "roster project update ") {
		t.Fatalf("late resume: exit %d\n%s\n%s", late.Code, late.Out, late.Err)
	}
	if st := w.Stored(); st.Revision != before.Revision || st.IdentityEvent != before.IdentityEvent {
		t.Fatal("the expired resume changed the project")
	}
}

// Rule (every event roster signs is journaled): the empty channel-sections
// event `workspace create` publishes as its migration source is kept until
// the relay's OK; a lost answer is resumed with the same event, after which
// `workspace import` makes the workspace from it.
func TestAnInterruptedWorkspaceCreateKeepsItsSourceEventAndResumesIt(t *testing.T) {
	t.Parallel()
	w := clitest.NewSWWorld(t)
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == sections.KindLegacy }})
	r := w.As(clitest.SwOwnerSK, "workspace", "create", "--json")
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	home := w.Homes[clitest.SwOwnerSK]
	write := interruptedWrite(t, r, home, clitest.SwOwnerSK, w.Relay.URL())
	if clitest.Stores(w.Relay, write) {
		t.Fatal("the dropped event is stored")
	}
	res := pendingIn(t, home, clitest.SwOwnerSK, "pending", "resume", write[:12], "--json")
	if out := clitest.DecodeOut[clitest.PendingResumeJSON](t, res); res.Code != cmdutil.ExitOK || !out.Verified || len(out.Sent[write]) != 1 {
		t.Fatalf("resume: exit %d\n%s\n%s", res.Code, res.Out, res.Err)
	}
	if !clitest.Stores(w.Relay, write) || len(clitest.JournalFiles(t, home)) != 0 {
		t.Fatal("the relay does not store the original source event, or the journal kept it")
	}
	imp := clitest.DecodeOut[struct {
		SourceEventID string `json:"source_event_id"`
	}](t, w.MustAs(clitest.SwOwnerSK, "workspace", "import", "--json"))
	if imp.SourceEventID != write {
		t.Fatalf("imported %s, want the resumed source %s", imp.SourceEventID, write)
	}
}

// Rule (a NIP-PC change is an exact replay only against its expected
// revision): a relate whose connection drops after the EVENT is resumed
// with the same kind 47010 change; a relate whose first attempt the relay
// refused with conflict: leaves nothing in the journal (nothing committed).
func TestAnInterruptedRelateIsResumedAndARefusedAttemptLeavesNoEntry(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	home := t.TempDir()
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == 47010 }})
	r := w.AsIn(home, clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	write := interruptedWrite(t, r, home, clitest.PcOwnerSK, w.Relay.URL())
	res := pendingIn(t, home, clitest.PcOwnerSK, "pending", "resume", write[:12], "--json")
	if out := clitest.DecodeOut[clitest.PendingResumeJSON](t, res); res.Code != cmdutil.ExitOK || !out.Verified || len(out.Sent[write]) != 1 {
		t.Fatalf("resume: exit %d\n%s\n%s", res.Code, res.Out, res.Err)
	}
	if st := w.Stored(); st.ChangeEvent != write || !st.Document.Related(clitest.PcChanA) {
		t.Fatalf("the relay's Project State %+v does not show the original change %s", st, write)
	}
	// Another client's change lands before roster's first attempt: the
	// relay refuses it with conflict:, roster retries once and succeeds.
	w.BeforeSign = func(attempt int) {
		if attempt == 0 {
			w.RelateFirst(clitest.PcChanC, nostr.Now())
		}
	}
	ok := w.AsIn(home, clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanB, "--json")
	if out := clitest.DecodeOut[struct {
		Retried bool `json:"retried"`
	}](t, ok); ok.Code != cmdutil.ExitOK || !out.Retried {
		t.Fatalf("relate with a conflict: exit %d\n%s\n%s", ok.Code, ok.Out, ok.Err)
	}
	if files := clitest.JournalFiles(t, home); len(files) != 0 {
		t.Fatalf("the journal keeps %v after a verified relate", files)
	}
}

// Rule (the journal fails closed): a journal file that cannot be read may
// be an unfinished write of this project, so a project write stops before
// signing (exit 1, journal-unreadable) and the relay is untouched.
func TestAProjectWriteStopsBeforeSigningOnAnUnreadableJournal(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	before := w.Stored()
	home := t.TempDir()
	if err := os.MkdirAll(home+"/journal", 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(home+"/journal/"+strings.Repeat("ab", 32)+"-0.json", []byte("not an entry"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := w.AsIn(home, clitest.PcOwnerSK, "project", "update", w.Coord.String(), "--name", "Renamed", "--json")
	if e := clitest.DecodeOut[clitest.ErrorOut](t, r); r.Code != cmdutil.ExitFailure || e.Error.Code != "journal-unreadable" {
		t.Fatalf("update with an unreadable journal: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if st := w.Stored(); st.Revision != before.Revision || st.IdentityEvent != before.IdentityEvent {
		t.Fatal("the refused update changed the project")
	}
}
