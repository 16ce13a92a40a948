package repo_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// bobLedHisOwnRepository seeds the join of maintainers.md "Pre-existing
// role-scoped actions become newly visible": Alice is the sole maintainer;
// Bob led his own same-identifier repository from 50 to 100 (a closed
// self-M), then acknowledged Alice; at 70 he closed Erin's issue there.
// With status, the old status is on the relays too.
func bobLedHisOwnRepository(t *testing.T, status bool) (w *clitest.MutWorld, issue, closed *nostr.Event) {
	w = clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100),
		clitest.Bob.Announce(t, w.Id, 100, clitest.Role("M", clitest.Bob, "50", "100"), clitest.Role("M", clitest.Alice, "100"), clitest.Role("m", clitest.Bob, "100"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)))
	a := nostr.Tag{"a", "30617:" + clitest.Bob.Pk + ":" + w.Id}
	issue = clitest.Erin.Sign(t, 1621, 60, a, nostr.Tag{"subject", "it breaks"})
	closed = clitest.Bob.Sign(t, 1632, 70, a, nostr.Tag{"e", issue.ID, "", "root"})
	w.Seed(issue)
	if status {
		w.Seed(closed)
	}
	return w, issue, closed
}

// An add that confirms Bob at once imports his old lead interval, which
// would make his status of 70 authoritative: refused with
// newly-authorized-action naming the event, its author and the result, and
// nothing is stored.
func TestJoinThatNewlyAuthorizesAnOldStatusIsRefusedAndStoresNothing(t *testing.T) {
	t.Parallel()
	w, issue, closed := bobLedHisOwnRepository(t, true)
	m := w.Refused(clitest.Alice, clitest.Alice, 1000, cmdutil.ExitRefused, "newly-authorized-action", "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	e := m["error"].(map[string]any)
	msg := e["message"].(string)
	for _, want := range []string{closed.ID, issue.ID, clitest.Bob.Npub(), "status open -> closed", "1970-01-01T00:01:10Z"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	changes := e["details"].(map[string]any)["changes"].([]any)
	c := changes[0].(map[string]any)
	evs := c["events"].([]any)
	if len(changes) != 1 || c["result"] != "status" || c["target"] != issue.ID || len(evs) != 1 ||
		evs[0].(map[string]any)["id"] != closed.ID || evs[0].(map[string]any)["author"] != clitest.Bob.Npub() {
		t.Fatalf("details.changes %v", changes)
	}
	// The human refusal says the same on stderr, exit 3.
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, closed.ID) || !strings.Contains(r.Err, "newly authorized") {
		t.Fatalf("exit %d\n%s", r.Code, r.Err)
	}
}

// Without the old status (Alice's own status on the issue instead) the
// same add confirms Bob, and the preview says
// what it compared instead of listing the check as not done; the role
// filter rode in the deletion round's request, so the add costs no extra
// round trip for it.
func TestJoinWithoutRoleScopedChangesComparesThemInTheSameRequests(t *testing.T) {
	t.Parallel()
	w, issue, _ := bobLedHisOwnRepository(t, false)
	// Alice's own status counts before and after alike.
	w.Seed(clitest.Alice.Sign(t, 1631, 90, nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id}, nostr.Tag{"e", issue.ID, "", "root"}))
	before := len(w.Relays[0].Requests())
	m := w.Ok(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--dry-run")
	raw, _ := json.Marshal(m)
	if !strings.Contains(string(raw), "role-scoped results before and after") || !strings.Contains(string(raw), "of 1 issue(s)") ||
		!strings.Contains(string(raw), "from 1 status") {
		t.Fatalf("checked lacks the role-scoped comparison:\n%s", raw)
	}
	if strings.Contains(string(raw), "newly authorize") {
		t.Fatalf("not_checked still lists newly authorized actions:\n%s", raw)
	}
	reqs := w.Relays[0].Requests()[before:]
	found := false
	for _, req := range reqs {
		deletions, roles := false, false
		for _, f := range req {
			deletions = deletions || slices.Contains(f.Kinds, 5)
			roles = roles || slices.Contains(f.Kinds, 1630) && slices.Contains(f.Tags["a"], "30617:"+clitest.Bob.Pk+":"+w.Id)
		}
		found = found || deletions && roles
		for _, f := range req {
			if slices.Contains(f.Kinds, 1630) && !deletions {
				t.Errorf("the role-scoped filter went in a request of its own: %v", req)
			}
		}
	}
	if !found {
		t.Fatalf("no request carried the role-scoped filter beside the deletions: %v", reqs)
	}
}

// check-event: exit 0 for a confirmed maintainer's status inside their
// role, and for the issue author's own status; 5 for a status older than
// the acceptance's effective start and for an outsider's; 4 for an event no
// relay holds.
func TestCheckEventAnswersWithTheRoleAtCreatedAt(t *testing.T) {
	t.Parallel()
	w, issue := clitest.CheckEventWorld(t)
	a := nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id}
	root := nostr.Tag{"e", issue.ID, "", "root"}
	inRole := clitest.Bob.Sign(t, 1631, 2500, a, root)
	early := clitest.Bob.Sign(t, 1632, 1500, a, root)
	own := clitest.Erin.Sign(t, 1632, 600, root) // no a tag: found through the issue's
	outsider := clitest.Carol.Sign(t, 1985, 2600, a, root, nostr.Tag{"L", "#t"}, nostr.Tag{"l", "spam", "#t"})
	w.Seed(inRole, early, own, outsider)

	var doc map[string]any
	r := w.CheckEvent(inRole.ID, "--json")
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &doc) != nil {
		t.Fatalf("in role: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	iv, _ := doc["interval"].(map[string]any)
	if doc["schema"] != "roster.check-event/v1" || doc["authorized"] != true || doc["by"] != "role" || doc["role"] != "maintainer" ||
		doc["current"] != true || iv == nil || iv["start"] != float64(2000) || iv["end"] != "open" || doc["complete"] != true {
		t.Fatalf("in role:\n%s", r.Out)
	}
	if tg := doc["target"].(map[string]any); tg["id"] != issue.ID || tg["npub"] != clitest.Erin.Npub() {
		t.Fatalf("target:\n%s", r.Out)
	}
	// Human output: dates, not epochs.
	r = w.CheckEvent(inRole.ID)
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "1970-01-01 00:41:40 UTC") || !strings.Contains(r.Out, "authorized: current maintainer role, from 1970-01-01 00:33:20 UTC, still open") {
		t.Fatalf("human:\n%s%s", r.Out, r.Err)
	}

	nevent, _ := nip19.EncodeEvent(own.ID, relayURLs(w), own.PubKey)
	r = w.CheckEvent(nevent, "--json")
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &doc) != nil || doc["by"] != "target-author" {
		t.Fatalf("author: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}

	for _, c := range []struct {
		evt    *nostr.Event
		reason string
	}{{early, "before-effective-start"}, {outsider, "no-role-at-that-time"}} {
		note, _ := nip19.EncodeNote(c.evt.ID)
		r = w.CheckEvent(note, "--json")
		if r.Code != cmdutil.ExitUnhealthy || json.Unmarshal([]byte(r.Out), &doc) != nil || doc["authorized"] != false || doc["reason"] != c.reason {
			t.Fatalf("%s: exit %d\n%s%s", c.reason, r.Code, r.Out, r.Err)
		}
	}
	r = w.CheckEvent(strings.Repeat("ab", 32), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"incomplete"`) {
		t.Fatalf("missing event: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// A relay that does not answer the repository's discovery is incomplete
// evidence: exit 4, never a verdict.
func TestCheckEventWithARelayDownIsIncomplete(t *testing.T) {
	t.Parallel()
	w, issue := clitest.CheckEventWorld(t)
	st := clitest.Bob.Sign(t, 1631, 2500, nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id}, nostr.Tag{"e", issue.ID, "", "root"})
	w.Seed(st)
	dead := "ws://127.0.0.1:1"
	full := append([]string{"repo", "check-event", st.ID, "--json", "--timeout", "2s", "--home", w.Home["ROSTER_HOME"], "--relay", dead}, clitest.RelayArgs(w.Relays)...)
	r := clitest.Invocation{Env: w.Home, Dir: w.Dir, Now: time.Unix(10_000, 0)}.Roster(t, full...)
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("exit %d, want 4\n%s%s", r.Code, r.Out, r.Err)
	}
}

func relayURLs(w *clitest.MutWorld) []string {
	var out []string
	for _, r := range w.Relays {
		out = append(out, r.URL())
	}
	return out
}

// A moderator's status counts from their effective start; their kind 30618
// state never does (exit 5, not-confirmed), a confirmed maintainer's does.
func TestCheckEventModeratorStatusYesStateNo(t *testing.T) {
	t.Parallel()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.LeadShaped(t, w.Id)...)
	issue := clitest.Erin.Sign(t, 1621, 300, nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id})
	status := clitest.Dave.Sign(t, 1632, 500, nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id}, nostr.Tag{"e", issue.ID, "", "root"})
	daveState := clitest.Dave.State(t, w.Id, 1100, strings.Repeat("cd", 20))
	w.Seed(issue, status, daveState)
	var doc map[string]any
	r := w.CheckEvent(status.ID, "--json")
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &doc) != nil || doc["role"] != "moderator" || doc["action"] != "status" {
		t.Fatalf("moderator status: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	// State names only an identifier: the repository must be given.
	if r = w.CheckEvent(daveState.ID, "--json"); r.Code != cmdutil.ExitUsage || !strings.Contains(r.Out, `"no-coordinate"`) {
		t.Fatalf("state without --repo: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	r = w.CheckEvent(daveState.ID, "--json", "--repo", clitest.Alice.Naddr(w.Id))
	if r.Code != cmdutil.ExitUnhealthy || json.Unmarshal([]byte(r.Out), &doc) != nil || doc["action"] != "state" || doc["reason"] != "not-confirmed" {
		t.Fatalf("moderator state: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	for _, e := range w.Relays[0].Stored(nostr.Filter{Kinds: []int{30618}, Authors: []string{clitest.Bob.Pk}}) {
		r = w.CheckEvent(e.ID, "--json", "--repo", clitest.Alice.Naddr(w.Id))
		if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &doc) != nil || doc["role"] != "maintainer" {
			t.Fatalf("maintainer state: exit %d\n%s%s", r.Code, r.Out, r.Err)
		}
	}
}

// A role-scoped event the preview did not compare, published between the
// preview and signing (Bob's old-dated status), is a concurrent change:
// the add aborts before signing and nothing is stored.
func TestRoleScopedEventBetweenPreviewAndSigningAborts(t *testing.T) {
	t.Parallel()
	w, issue, _ := bobLedHisOwnRepository(t, false)
	late := clitest.Bob.Sign(t, 1632, 70, nostr.Tag{"a", "30617:" + clitest.Bob.Pk + ":" + w.Id}, nostr.Tag{"e", issue.ID, "", "root"})
	w.Seams.BeforeRecheck = func() { w.Seed(late) }
	mine := func() int { return len(w.Relays[0].Stored(nostr.Filter{Authors: []string{clitest.Alice.Pk}})) }
	stored := mine()
	r := w.Run(clitest.Alice, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub(), "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"code": "concurrent-change"`) || !strings.Contains(r.Out, "role-scoped event "+late.ID) {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if mine() != stored {
		t.Fatalf("the relay stores %d events by alice, want %d: something was published", mine(), stored)
	}
}
