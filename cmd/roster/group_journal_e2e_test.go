package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/suggest"
)

// journaledGroups is a group relay and one home, kept across commands (the
// journal lives in the home's data directory).
type journaledGroups struct {
	*clitest.PcWorld
	home string
	now  int64
}

func newJournaledGroups(t *testing.T) *journaledGroups {
	return &journaledGroups{PcWorld: clitest.NewPCWorld(t), home: t.TempDir(), now: time.Now().Unix()}
}

// in runs roster as sk in the world's home, at the world's clock plus
// after seconds.
func (w *journaledGroups) in(sk string, after int64, args ...string) clitest.Result {
	w.T.Helper()
	env := map[string]string{"ROSTER_SECRET_KEY": sk, "ROSTER_HOME": w.home}
	return clitest.Invocation{Env: env, Now: time.Unix(w.now+after, 0)}.Roster(w.T, append(args, "--timeout", "5s")...)
}

// pending is `roster pending --json` in the world's home.
func (w *journaledGroups) pending(after int64) clitest.PendingJSON {
	w.T.Helper()
	r := w.in(clitest.PcOwnerSK, after, "pending", "--json")
	var p clitest.PendingJSON
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &p) != nil || p.Schema != "roster.pending/v1" {
		w.T.Fatalf("roster pending: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	return p
}

func (w *journaledGroups) storedIDs(kind int) []string {
	var ids []string
	for _, e := range w.Relay.Stored(nostr.Filter{Kinds: []int{kind}, Tags: nostr.TagMap{"h": {"pizza"}}}) {
		ids = append(ids, e.ID)
	}
	return ids
}

// interruptedCreate runs `group create <relay>'pizza --name Pizza
// --closed` while the relay answers its edit-metadata with mis: the
// create-group is accepted, the edit-metadata is not stored. It checks
// that the command says the group WAS created (exit 6, naming the stored
// 9007) and returns the write's id.
func interruptedCreate(t *testing.T, w *journaledGroups, mis devrelay.Misbehaviour) string {
	t.Helper()
	w.Relay.SetMisbehaviour(mis)
	r := w.in(clitest.PcOwnerSK, 0, "group", "create", w.Relay.URL()+"'pizza", "--name", "Pizza", "--closed", "--json")
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	e := clitest.ErrorBody(t, r)
	creates := w.storedIDs(grouprelay.KindCreateGroup)
	if r.Code != cmdutil.ExitUnverified || e.Code != "group-created-partly" || len(creates) != 1 {
		t.Fatalf("create with its 9002 lost: exit %d, stored 9007s %v\n%s\n%s", r.Code, creates, r.Out, r.Err)
	}
	write, _ := e.Details["journal"].(string)
	if !strings.Contains(e.Message, "WAS created") || !strings.Contains(e.Message, creates[0]) || e.Details["stored"] != creates[0] || write != creates[0] {
		t.Fatalf("the failure does not say the group was created and what was stored: %+v", e)
	}
	if len(e.Commands) == 0 || !strings.HasPrefix(e.Commands[0], "roster pending resume "+write[:12]) {
		t.Fatalf("the first command is not the resume: %v", e.Commands)
	}
	if got := w.storedIDs(grouprelay.KindEditMetadata); len(got) != 0 {
		t.Fatalf("the lost 9002 is stored: %v", got)
	}
	return write
}

// Rule (every signed event is journaled before it is sent; nip-29.md
// 9007 then 9002): a create whose 9002 is lost after the relay accepted
// its 9007 says the group was created (exit 6), `roster pending` lists
// both events (the 9007 held, the 9002 lacking), the next command on the
// group says so before signing, and `roster pending resume` sends the
// very 9002 that was signed, verified by the relay-signed 39000.
func TestAGroupCreateInterruptedAfterItsCreateGroupResumesWithTheSameEvents(t *testing.T) {
	t.Parallel()
	w := newJournaledGroups(t)
	write := interruptedCreate(t, w, devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindEditMetadata }})
	p := w.pending(10)
	if len(p.Writes) != 1 || p.Writes[0].ID != write || len(p.Writes[0].Events) != 2 {
		t.Fatalf("pending: %+v", p)
	}
	ev := p.Writes[0].Events
	if ev[0].ID != write || strings.Join(ev[0].Holding, ",") != w.Relay.URL() || strings.Join(ev[1].Lacking, ",") != w.Relay.URL() {
		t.Fatalf("pending events %+v", ev)
	}
	metadata := ev[1].ID
	next := w.in(clitest.PcOwnerSK, 20, "group", "edit", w.Relay.URL()+"'pizza", "--about", "later", "--dry-run")
	if !strings.Contains(next.Err, "earlier write of this group did not finish") || !strings.Contains(next.Err, "roster pending resume "+write[:12]) {
		t.Fatalf("the next command on the group did not mention the unfinished write:\n%s", next.Err)
	}
	r := w.in(clitest.PcOwnerSK, 30, "pending", "resume", write[:12], "--json")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, `"verified": true`) {
		t.Fatalf("resume: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if got := w.storedIDs(grouprelay.KindEditMetadata); len(got) != 1 || got[0] != metadata {
		t.Fatalf("the relay stores the 9002s %v, want the original %s", got, metadata)
	}
	if got := w.storedIDs(grouprelay.KindCreateGroup); len(got) != 1 || got[0] != write {
		t.Fatalf("the relay stores the 9007s %v, want the original %s", got, write)
	}
	if st := w.RelayState("pizza"); !st.Live() || st.Metadata.Name != "Pizza" || !st.Metadata.Closed {
		t.Fatalf("the relay-signed 39000 after the resume: %+v", st.Metadata)
	}
	if files := clitest.JournalFiles(t, w.home); len(files) != 0 {
		t.Fatalf("the resumed write stays in the journal: %v", files)
	}
}

// Rule (a rate-limited 9002 after an accepted 9007 is not a failed create):
// the group exists, the command exits 6 saying so, and the kept 9002 is
// sent by the resume once the relay takes it.
func TestARateLimitedMetadataAfterTheCreateSaysTheGroupWasCreated(t *testing.T) {
	t.Parallel()
	w := newJournaledGroups(t)
	write := interruptedCreate(t, w, devrelay.Misbehaviour{RefuseEvent: func(e *nostr.Event) string {
		if e.Kind == grouprelay.KindEditMetadata {
			return "rate-limited: slow down"
		}
		return ""
	}})
	if r := w.in(clitest.PcOwnerSK, 30, "pending", "resume", write[:12]); r.Code != cmdutil.ExitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if st := w.RelayState("pizza"); st.Metadata == nil || st.Metadata.Name != "Pizza" {
		t.Fatalf("after the resume: %+v", st.Metadata)
	}
}

// Rule (resume refuses a group that changed): after the interrupted create
// another edit of the group's metadata reaches the relay (the owner, from
// another machine); the resume sends nothing, exits 3 concurrent-change,
// says the relay holds the 9007 and offers the rerun, which for a group
// that now exists is the edit of its metadata.
func TestResumeAfterACompetingGroupChangeSendsNothingAndOffersTheRerun(t *testing.T) {
	t.Parallel()
	w := newJournaledGroups(t)
	write := interruptedCreate(t, w, devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindEditMetadata }})
	w.MustPublish(clitest.PcOwnerSK, &nostr.Event{Kind: grouprelay.KindEditMetadata, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", "pizza"}, {"name", "Pizza from elsewhere"}}})
	other := w.storedIDs(grouprelay.KindEditMetadata)
	r := w.in(clitest.PcOwnerSK, 30, "pending", "resume", write[:12], "--json")
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitRefused || e.Code != "concurrent-change" {
		t.Fatalf("resume after a competing edit: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if !strings.Contains(e.Message, write+" (kind 9007) is held by "+w.Relay.URL()) || !strings.Contains(e.Message, other[0]) {
		t.Fatalf("the refusal does not say what changed and who holds the event: %s", e.Message)
	}
	if len(e.Commands) < 2 || !strings.HasPrefix(e.Commands[0], "roster group edit "+suggest.Quote(w.Relay.URL()+"'pizza")+" ") ||
		!strings.Contains(e.Commands[0], " --name Pizza") || !strings.Contains(e.Commands[0], " --closed") ||
		!strings.HasPrefix(e.Commands[1], "roster pending discard "+write[:12]) {
		t.Fatalf("the refusal does not offer the rerun first: %v", e.Commands)
	}
	if got := w.storedIDs(grouprelay.KindEditMetadata); len(got) != 1 || got[0] != other[0] {
		t.Fatalf("a refused resume sent its 9002: %v", got)
	}
	if files := clitest.JournalFiles(t, w.home); len(files) != 2 {
		t.Fatalf("a refused resume dropped the entry: %v", files)
	}
}

// Rule (a join request is journaled like every signed event): a 9021 whose
// connection drops after the EVENT is exit 6 with the unfinished write;
// the resume sends the same request and verifies the membership.
func TestAnInterruptedJoinIsResumedWithTheSameRequest(t *testing.T) {
	t.Parallel()
	w := newJournaledGroups(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindJoinRequest }})
	r := w.in(clitest.PcStrangerSK, 0, "group", "join", w.Relay.URL()+"'"+clitest.PcHome, "--json")
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	e := clitest.ErrorBody(t, r)
	write, _ := e.Details["journal"].(string)
	if r.Code != cmdutil.ExitUnverified || len(write) != 64 {
		t.Fatalf("join with a dropped connection: exit %d %+v", r.Code, e)
	}
	if got := w.StoredKind(grouprelay.KindJoinRequest, clitest.PubOf(t, clitest.PcStrangerSK)); len(got) != 0 {
		t.Fatalf("the dropped join is stored: %v", got)
	}
	res := w.in(clitest.PcStrangerSK, 30, "pending", "resume", write[:12], "--json")
	if res.Code != cmdutil.ExitOK || !strings.Contains(res.Out, `"verified": true`) {
		t.Fatalf("resume: exit %d\n%s\n%s", res.Code, res.Out, res.Err)
	}
	if got := w.StoredKind(grouprelay.KindJoinRequest, clitest.PubOf(t, clitest.PcStrangerSK)); len(got) != 1 || got[0].ID != write {
		t.Fatalf("the relay stores the joins %v, want the original %s", got, write)
	}
	if !slices.Contains(w.RelayState(clitest.PcHome).Members, clitest.PubOf(t, clitest.PcStrangerSK)) {
		t.Fatal("the resumed join did not make the stranger a member")
	}
}

// Rule (multi-event writes resume in their order): a create whose 9007 is
// lost with the connection is exit 6 with both signed events journaled and
// nothing stored; the resume sends the 9007, rechecks, then the 9002, both
// with their original ids, and the group is as asked.
func TestACreateLostBeforeItsCreateGroupResumesBothEventsInOrder(t *testing.T) {
	t.Parallel()
	w := newJournaledGroups(t)
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindCreateGroup }})
	r := w.in(clitest.PcOwnerSK, 0, "group", "create", w.Relay.URL()+"'pizza", "--name", "Pizza", "--json")
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	e := clitest.ErrorBody(t, r)
	write, _ := e.Details["journal"].(string)
	if r.Code != cmdutil.ExitUnverified || e.Code != "unconfirmed" || len(write) != 64 || len(w.storedIDs(grouprelay.KindCreateGroup)) != 0 {
		t.Fatalf("create with its 9007 lost: exit %d %+v", r.Code, e)
	}
	p := w.pending(10)
	if len(p.Writes) != 1 || len(p.Writes[0].Events) != 2 || len(p.Writes[0].Events[0].Holding)+len(p.Writes[0].Events[1].Holding) != 0 {
		t.Fatalf("pending: %+v", p)
	}
	res := w.in(clitest.PcOwnerSK, 30, "pending", "resume", write[:12])
	if res.Code != cmdutil.ExitOK || !strings.Contains(res.Out, "sent "+write+" (kind 9007) again") {
		t.Fatalf("resume: exit %d\n%s\n%s", res.Code, res.Out, res.Err)
	}
	creates, edits := w.storedIDs(grouprelay.KindCreateGroup), w.storedIDs(grouprelay.KindEditMetadata)
	if len(creates) != 1 || creates[0] != write || len(edits) != 1 || edits[0] != p.Writes[0].Events[1].ID {
		t.Fatalf("stored 9007s %v and 9002s %v, want the journal's", creates, edits)
	}
	if st := w.RelayState("pizza"); st.Metadata == nil || st.Metadata.Name != "Pizza" {
		t.Fatalf("after the resume: %+v", st.Metadata)
	}
}

// Rule (nip-29.md "Late publication": relays should refuse events dated
// hours ago): past the 15-minute acceptance window the resume sends
// nothing (exit 3 pending-expired) and offers the rerun, here the edit of
// the created group's metadata.
func TestAGroupWritePastTheAcceptanceWindowIsNotSentAgain(t *testing.T) {
	t.Parallel()
	w := newJournaledGroups(t)
	write := interruptedCreate(t, w, devrelay.Misbehaviour{DropEvent: func(e *nostr.Event) bool { return e.Kind == grouprelay.KindEditMetadata }})
	r := w.in(clitest.PcOwnerSK, 16*60, "pending", "resume", write[:12], "--json")
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitRefused || e.Code != "pending-expired" || len(e.Commands) == 0 || !strings.HasPrefix(e.Commands[0], "roster group edit ") {
		t.Fatalf("a late resume: exit %d %+v", r.Code, e)
	}
	if got := w.storedIDs(grouprelay.KindEditMetadata); len(got) != 0 {
		t.Fatalf("a late resume sent its 9002: %v", got)
	}
}

// Rule (the journal fails closed): a journal file that cannot be read may
// be an unfinished write of the group, so a group write stops before
// signing (exit 1 journal-unreadable) and the relay is sent nothing.
func TestAnUnreadableJournalStopsAGroupWriteBeforeSigning(t *testing.T) {
	t.Parallel()
	w := newJournaledGroups(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	dir := filepath.Join(w.home, "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, strings.Repeat("ab", 32)+"-0.json"), []byte(`{"version":1,"rep`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := w.in(clitest.PcOwnerSK, 0, "group", "add", w.Relay.URL()+"'"+clitest.PcHome, w.NpubOf(clitest.PcAdminSK), "--json")
	if e := clitest.ErrorBody(t, r); r.Code != cmdutil.ExitFailure || e.Code != "journal-unreadable" {
		t.Fatalf("a group write with an unreadable journal: exit %d %+v", r.Code, e)
	}
	if got := w.StoredKind(grouprelay.KindPutUser, clitest.PubOf(t, clitest.PcOwnerSK)); len(got) != 0 {
		t.Fatalf("the write sent its 9000: %v", got)
	}
}
