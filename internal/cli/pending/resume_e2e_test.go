package pending_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// interruptedByADroppedConnection: Alice invites Bob on two relays; the
// second loses the connection right after the EVENT. The change is exit 6,
// and the journal keeps the signed event, held by the first relay only.
func interruptedByADroppedConnection(t *testing.T) (*clitest.MutWorld, string) {
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Relays[1].SetMisbehaviour(devrelay.Misbehaviour{DropEvent: clitest.AliceAnnouncementOf(w.Id)})
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	if r.Code != cmdutil.ExitUnverified {
		t.Fatalf("edit with a dropped connection: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	var doc struct {
		Error struct {
			Details  map[string]any `json:"details"`
			Commands []string       `json:"commands"`
		} `json:"error"`
	}
	_ = json.Unmarshal([]byte(r.Out), &doc)
	write, _ := doc.Error.Details["journal"].(string)
	if len(write) != 64 || !slices.ContainsFunc(doc.Error.Commands, func(c string) bool { return strings.HasPrefix(c, "roster pending resume "+write[:12]) }) {
		t.Fatalf("the failure does not name the unfinished write and its resume: %s", r.Out)
	}
	w.Relays[1].SetMisbehaviour(devrelay.Misbehaviour{})
	if !clitest.Stores(w.Relays[0], write) || clitest.Stores(w.Relays[1], write) {
		t.Fatalf("want the event on the first relay only")
	}
	return w, write
}

// Rule (no signed event on some relays that roster does not know): a
// connection dropped after the EVENT leaves the event in the journal;
// `roster pending` says which relay holds it and which lacks it, the next
// change of the coordinate says so before signing, and `roster pending
// resume` sends the very same event to the relay that lacks it.
func TestAWriteInterruptedByADroppedConnectionIsResumedWithTheSameEvent(t *testing.T) {
	t.Parallel()
	w, write := interruptedByADroppedConnection(t)
	p := w.ListPending(1010)
	if len(p.Writes) != 1 || p.Writes[0].ID != write || !p.Checked {
		t.Fatalf("pending: %+v", p)
	}
	ev := p.Writes[0].Events[0]
	if !slices.Equal(ev.Holding, []string{w.Relays[0].URL()}) || !slices.Equal(ev.Lacking, []string{w.Relays[1].URL()}) {
		t.Fatalf("holding %v lacking %v", ev.Holding, ev.Lacking)
	}
	human := w.PendingCmd(1010, "pending")
	if human.Code != cmdutil.ExitOK || !strings.Contains(human.Out, "lacking: "+w.Relays[1].URL()) ||
		!strings.Contains(human.Out, "run: roster pending resume "+write[:12]+" --home "+w.Home["ROSTER_HOME"]) {
		t.Fatalf("roster pending:\n%s\n%s", human.Out, human.Err)
	}
	// The next change of the coordinate says so before it signs anything.
	dry := w.Run(clitest.Alice, clitest.Alice, 1020, "repo", "edit", "--add-maintainer", clitest.Carol.Npub(), "--dry-run")
	if !strings.Contains(dry.Err, "did not finish") || !strings.Contains(dry.Err, "roster pending resume "+write[:12]) {
		t.Fatalf("the next change did not mention the unfinished write:\n%s", dry.Err)
	}
	// So does a read of it.
	if read := w.Run(clitest.Alice, clitest.Alice, 1025, "repo"); read.Code != cmdutil.ExitOK || !strings.Contains(read.Err, "did not finish") {
		t.Fatalf("roster repo did not mention the unfinished write: exit %d\n%s", read.Code, read.Err)
	}
	r := w.PendingCmd(1030, "pending", "resume", write[:12], "--json")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, `"verified": true`) {
		t.Fatalf("resume: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	for _, rel := range w.Relays {
		if got := clitest.LatestAnnouncement(rel, clitest.Alice, w.Id); got == nil || got.ID != write {
			t.Fatalf("%s keeps %v, want the original event %s", rel.URL(), got, write)
		}
	}
	if files := clitest.JournalFiles(t, w.Home["ROSTER_HOME"]); len(files) != 0 {
		t.Fatalf("the resumed write stays in the journal: %v", files)
	}
}

// Rule (resume refuses a repository that changed): after the interrupted
// write a competing edit of Alice's announcement (from another machine)
// reaches the relay that lacks it; resume sends nothing, exits 3
// concurrent-change, says which relay holds the event and offers the rerun
// of the original command, which previews afresh.
func TestResumeAfterACompetingEditSendsNothingAndOffersTheRerun(t *testing.T) {
	t.Parallel()
	w, write := interruptedByADroppedConnection(t)
	other := clitest.Alice.Announce(t, w.Id, 1005, nostr.Tag{"description", "edited on another machine"})
	clitest.Publish(t, w.Relays[1].URL(), other)
	before := w.StoredCount()
	r := w.PendingCmd(1030, "pending", "resume", write[:12], "--json")
	if r.Code != cmdutil.ExitRefused {
		t.Fatalf("resume after a competing edit: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	var doc struct {
		Error struct {
			Code     string         `json:"code"`
			Message  string         `json:"message"`
			Details  map[string]any `json:"details"`
			Commands []string       `json:"commands"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Out), &doc); err != nil || doc.Error.Code != "concurrent-change" {
		t.Fatalf("resume: %v %s", err, r.Out)
	}
	if !strings.Contains(doc.Error.Message, w.Relays[0].URL()) || len(doc.Error.Commands) == 0 ||
		!strings.HasPrefix(doc.Error.Commands[0], "roster repo edit --add-maintainer "+clitest.Bob.Npub()+" --repo ") {
		t.Fatalf("the refusal does not say who holds the event or offer the rerun first: %s", r.Out)
	}
	if clitest.Stores(w.Relays[1], write) || w.StoredCount() != before {
		t.Fatal("a refused resume sent something")
	}
	if files := clitest.JournalFiles(t, w.Home["ROSTER_HOME"]); len(files) != 1 {
		t.Fatalf("a refused resume dropped the entry: %v", files)
	}
	clitest.CarrySelectors(t, doc.Error.Commands, clitest.Alice.Naddr(w.Id), nil, w.Home["ROSTER_HOME"])
	// The rerun, pasted as printed, previews the repository as it is now.
	rerun := strings.Fields(strings.SplitN(doc.Error.Commands[0], "  #", 2)[0])[1:]
	if r := (clitest.Invocation{Env: clitest.WithKey(w.Home, clitest.Alice), Dir: w.Dir, Now: time.Unix(1040, 0)}).Roster(t, append(rerun, "--dry-run", "--json")...); r.Code != cmdutil.ExitOK {
		t.Fatalf("the rerun as printed: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	// Discard forgets it; what the relays hold stays.
	if r := w.PendingCmd(1050, "pending", "discard", write[:12]); r.Code != cmdutil.ExitOK {
		t.Fatalf("discard: exit %d %s", r.Code, r.Err)
	}
	if files := clitest.JournalFiles(t, w.Home["ROSTER_HOME"]); len(files) != 0 || !clitest.Stores(w.Relays[0], write) {
		t.Fatalf("discard: files %v", files)
	}
}

// Rule (a killed process leaves nothing unknown): a real roster process is
// killed with SIGKILL after the first relay's OK while the second relay is
// still busy with the EVENT; the journal holds the event with the first
// relay's acknowledgement, and resume sends the same event to the second.
func TestAWriteKilledAfterTheFirstOKIsResumedWithTheSameEvent(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 2)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100))
	w.Relays[1].SetMisbehaviour(devrelay.Misbehaviour{HoldEvent: clitest.AliceAnnouncementOf(w.Id)})
	home := w.Home["ROSTER_HOME"]
	args := append([]string{"--repo", clitest.Alice.Naddr(w.Id), "--timeout", "30s", "--home", home}, clitest.RelayArgs(w.Relays)...)
	cmd, stdout, stderr := clitest.RosterProcess(t, map[string]string{"ROSTER_SECRET_KEY": clitest.Alice.Sk, "HOME": w.Home["HOME"]}, w.Dir,
		append(args, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())...)
	var write string
	clitest.WaitFor(t, "the journal to record the first relay's OK", 20*time.Second, func() bool {
		for _, f := range clitest.JournalFiles(t, home) {
			b, _ := os.ReadFile(f)
			var e struct {
				Write string   `json:"write"`
				Acked []string `json:"acked"`
			}
			if json.Unmarshal(b, &e) == nil && slices.Contains(e.Acked, w.Relays[0].URL()) {
				write = e.Write
				return true
			}
		}
		return false
	})
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if cmd.ProcessState.ExitCode() != -1 {
		t.Fatalf("roster exited on its own (%v) before the kill:\n%s\n%s", cmd.ProcessState, stdout, stderr)
	}
	clitest.WaitFor(t, "the second relay to drop the connection", 10*time.Second, func() bool { return w.Relays[1].Connections() == 0 })
	w.Relays[1].SetMisbehaviour(devrelay.Misbehaviour{})
	if !clitest.Stores(w.Relays[0], write) || clitest.Stores(w.Relays[1], write) {
		t.Fatal("want the event on the first relay only after the kill")
	}
	now := time.Now().Unix()
	p := w.ListPending(now)
	if len(p.Writes) != 1 || p.Writes[0].ID != write || !slices.Equal(p.Writes[0].Events[0].Lacking, []string{w.Relays[1].URL()}) {
		t.Fatalf("pending after the kill: %+v", p)
	}
	r := w.PendingCmd(now, "pending", "resume", write)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	for _, rel := range w.Relays {
		if got := clitest.LatestAnnouncement(rel, clitest.Alice, w.Id); got == nil || got.ID != write {
			t.Fatalf("%s keeps %v, want the original event %s", rel.URL(), got, write)
		}
	}
	if files := clitest.JournalFiles(t, home); len(files) != 0 {
		t.Fatalf("the resumed write stays in the journal: %v", files)
	}
}
