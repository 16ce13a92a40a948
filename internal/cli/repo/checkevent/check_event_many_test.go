package checkevent_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (check-event, many events in one process): references from --stdin
// are read in one round per relay (one request for all the events), each
// gets a verdict (JSON lines with --json, each saying its time rests on the
// event's own created_at), and the exit code is the worst verdict's.
func TestCheckEventStdinAsksEachRelayOnceForTheEvents(t *testing.T) {
	t.Parallel()
	w, issue := clitest.CheckEventWorld(t)
	a := nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id}
	root := nostr.Tag{"e", issue.ID, "", "root"}
	var lines []string
	var evts []*nostr.Event
	for i := range 100 {
		e := clitest.Bob.Sign(t, 1631, int64(2500+i), a, root)
		evts = append(evts, e)
		lines = append(lines, e.ID)
	}
	w.Seed(evts...)
	before := map[int]int{}
	for i, r := range w.Relays {
		before[i] = r.ReqCount()
	}
	full := append([]string{"repo", "check-event", "--stdin", "--json", "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)
	inv := clitest.Invocation{Env: w.Home, Dir: w.Dir, Now: time.Unix(10_000, 0), Stdin: "# statuses\n" + strings.Join(lines, "\n") + "\n\n"}
	r := inv.Roster(t, full...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
	out := strings.Split(strings.TrimSpace(r.Out), "\n")
	if len(out) != 100 {
		t.Fatalf("%d JSON lines, want 100:\n%s", len(out), r.Out)
	}
	for i, l := range out {
		var doc struct {
			Schema     string              `json:"schema"`
			Authorized bool                `json:"authorized"`
			TimeSource string              `json:"time_source"`
			Event      struct{ ID string } `json:"event"`
		}
		if err := json.Unmarshal([]byte(l), &doc); err != nil || doc.Schema != "roster.check-event/v1" || !doc.Authorized ||
			doc.TimeSource != "created_at" || doc.Event.ID != lines[i] {
			t.Fatalf("line %d: %v %q", i, err, l)
		}
	}
	for i, rel := range w.Relays {
		eventReqs := 0
		for _, req := range rel.Requests()[before[i]:] {
			for _, f := range req {
				if len(f.IDs) > 0 && len(f.Kinds) == 0 {
					eventReqs++
					break
				}
			}
		}
		if eventReqs != 1 {
			t.Fatalf("relay %d was asked for the events %d times, want once", i, eventReqs)
		}
	}

	// An unauthorized event among them makes the exit code 5; a missing one
	// alone would be 4; the human output says what the times rest on once.
	outsider := clitest.Carol.Sign(t, 1985, 2600, a, root, nostr.Tag{"L", "#t"}, nostr.Tag{"l", "spam", "#t"})
	w.Seed(outsider)
	missing := strings.Repeat("ab", 32)
	base := append([]string{"repo", "check-event", "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)
	r = inv.Roster(t, append(base, lines[0], missing)...)
	if r.Code != cmdutil.ExitIncomplete || strings.Count(r.Out, "created_at, which its author asserts") != 1 {
		t.Fatalf("missing: exit %d, want 4:\n%s%s", r.Code, r.Out, r.Err)
	}
	r = inv.Roster(t, append(base, lines[0], missing, outsider.ID, "--json")...)
	if r.Code != cmdutil.ExitUnhealthy || strings.Count(strings.TrimSpace(r.Out), "\n") != 2 || !strings.Contains(r.Out, `"code":"incomplete"`) {
		t.Fatalf("outsider: exit %d, want 5 with three JSON lines:\n%s%s", r.Code, r.Out, r.Err)
	}
	// --format github: a notice per authorized event, an error per
	// unauthorized one, well-formed; the same exit code.
	r = inv.Roster(t, append(base, lines[0], outsider.ID, "--format", "github")...)
	cmds := clitest.ParseWorkflowCommands(t, r.Out)
	if r.Code != cmdutil.ExitUnhealthy || len(cmds) != 2 || cmds[0].Command != "notice" || cmds[1].Command != "error" ||
		!strings.Contains(cmds[1].Message, "not authorized") {
		t.Fatalf("--format github: exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
}
