package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// bobLedHisOwnRepository seeds the join of maintainers.md "Pre-existing
// role-scoped actions become newly visible": Alice is the sole maintainer;
// Bob led his own same-identifier repository from 50 to 100 (a closed
// self-M), then acknowledged Alice; at 70 he closed Erin's issue there.
// With status, the old status is on the relays too.
func bobLedHisOwnRepository(t *testing.T, status bool) (w *mutWorld, issue, closed *nostr.Event) {
	w = newMutWorld(t, 1)
	w.seed(alice.announce(t, w.id, 100),
		bob.announce(t, w.id, 100, role("M", bob, "50", "100"), role("M", alice, "100"), role("m", bob, "100"), maintainersTag(alice, bob)))
	a := nostr.Tag{"a", "30617:" + bob.pk + ":" + w.id}
	issue = erin.sign(t, 1621, 60, a, nostr.Tag{"subject", "it breaks"})
	closed = bob.sign(t, 1632, 70, a, nostr.Tag{"e", issue.ID, "", "root"})
	w.seed(issue)
	if status {
		w.seed(closed)
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
	m := w.refused(alice, alice, 1000, cmdutil.ExitRefused, "newly-authorized-action", "repo", "edit", "--add-maintainer", bob.npub())
	e := m["error"].(map[string]any)
	msg := e["message"].(string)
	for _, want := range []string{closed.ID, issue.ID, bob.npub(), "status open -> closed", "1970-01-01T00:01:10Z"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	changes := e["details"].(map[string]any)["changes"].([]any)
	c := changes[0].(map[string]any)
	evs := c["events"].([]any)
	if len(changes) != 1 || c["result"] != "status" || c["target"] != issue.ID || len(evs) != 1 ||
		evs[0].(map[string]any)["id"] != closed.ID || evs[0].(map[string]any)["author"] != bob.npub() {
		t.Fatalf("details.changes %v", changes)
	}
	// The human refusal says the same on stderr, exit 3.
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub())
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
	w.seed(alice.sign(t, 1631, 90, nostr.Tag{"a", "30617:" + alice.pk + ":" + w.id}, nostr.Tag{"e", issue.ID, "", "root"}))
	before := len(w.relays[0].Requests())
	m := w.ok(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--dry-run")
	raw, _ := json.Marshal(m)
	if !strings.Contains(string(raw), "role-scoped results before and after") || !strings.Contains(string(raw), "of 1 issue(s)") ||
		!strings.Contains(string(raw), "from 1 status") {
		t.Fatalf("checked lacks the role-scoped comparison:\n%s", raw)
	}
	if strings.Contains(string(raw), "newly authorize") {
		t.Fatalf("not_checked still lists newly authorized actions:\n%s", raw)
	}
	reqs := w.relays[0].Requests()[before:]
	found := false
	for _, req := range reqs {
		deletions, roles := false, false
		for _, f := range req {
			deletions = deletions || slices.Contains(f.Kinds, 5)
			roles = roles || slices.Contains(f.Kinds, 1630) && slices.Contains(f.Tags["a"], "30617:"+bob.pk+":"+w.id)
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

// checkEventWorld: Alice leads, Bob was invited at 1000 and accepted at
// 2000; Erin opened an issue at 500.
func checkEventWorld(t *testing.T) (*mutWorld, *nostr.Event) {
	w := twoMaintainers(t)
	issue := erin.sign(t, 1621, 500, nostr.Tag{"a", "30617:" + alice.pk + ":" + w.id}, nostr.Tag{"subject", "it breaks"})
	w.seed(issue)
	return w, issue
}

// checkEvent runs `roster repo check-event` without --repo (the event
// names its repository) against w's relays.
func (w *mutWorld) checkEvent(args ...string) result {
	w.t.Helper()
	full := append([]string{"repo", "check-event", "--timeout", "5s", "--home", w.home["ROSTER_HOME"]}, relayArgs(w.relays)...)
	return invocation{Env: w.home, Dir: w.dir, Now: time.Unix(10_000, 0)}.roster(w.t, append(full, args...)...)
}

// check-event: exit 0 for a confirmed maintainer's status inside their
// role, and for the issue author's own status; 5 for a status older than
// the acceptance's effective start and for an outsider's; 4 for an event no
// relay holds.
func TestCheckEventAnswersWithTheRoleAtCreatedAt(t *testing.T) {
	t.Parallel()
	w, issue := checkEventWorld(t)
	a := nostr.Tag{"a", "30617:" + alice.pk + ":" + w.id}
	root := nostr.Tag{"e", issue.ID, "", "root"}
	inRole := bob.sign(t, 1631, 2500, a, root)
	early := bob.sign(t, 1632, 1500, a, root)
	own := erin.sign(t, 1632, 600, root) // no a tag: found through the issue's
	outsider := carol.sign(t, 1985, 2600, a, root, nostr.Tag{"L", "#t"}, nostr.Tag{"l", "spam", "#t"})
	w.seed(inRole, early, own, outsider)

	var doc map[string]any
	r := w.checkEvent(inRole.ID, "--json")
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &doc) != nil {
		t.Fatalf("in role: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	iv, _ := doc["interval"].(map[string]any)
	if doc["schema"] != "roster.check-event/v1" || doc["authorized"] != true || doc["by"] != "role" || doc["role"] != "maintainer" ||
		doc["current"] != true || iv == nil || iv["start"] != float64(2000) || iv["end"] != "open" || doc["complete"] != true {
		t.Fatalf("in role:\n%s", r.Out)
	}
	if tg := doc["target"].(map[string]any); tg["id"] != issue.ID || tg["npub"] != erin.npub() {
		t.Fatalf("target:\n%s", r.Out)
	}
	// Human output: dates, not epochs.
	r = w.checkEvent(inRole.ID)
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "1970-01-01 00:41:40 UTC") || !strings.Contains(r.Out, "authorized: current maintainer role, from 1970-01-01 00:33:20 UTC, still open") {
		t.Fatalf("human:\n%s%s", r.Out, r.Err)
	}

	nevent, _ := nip19.EncodeEvent(own.ID, relayURLs(w), own.PubKey)
	r = w.checkEvent(nevent, "--json")
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &doc) != nil || doc["by"] != "target-author" {
		t.Fatalf("author: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}

	for _, c := range []struct {
		evt    *nostr.Event
		reason string
	}{{early, "before-effective-start"}, {outsider, "no-role-at-that-time"}} {
		note, _ := nip19.EncodeNote(c.evt.ID)
		r = w.checkEvent(note, "--json")
		if r.Code != cmdutil.ExitUnhealthy || json.Unmarshal([]byte(r.Out), &doc) != nil || doc["authorized"] != false || doc["reason"] != c.reason {
			t.Fatalf("%s: exit %d\n%s%s", c.reason, r.Code, r.Out, r.Err)
		}
	}
	r = w.checkEvent(strings.Repeat("ab", 32), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"incomplete"`) {
		t.Fatalf("missing event: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
}

// A relay that does not answer the repository's discovery is incomplete
// evidence: exit 4, never a verdict.
func TestCheckEventWithARelayDownIsIncomplete(t *testing.T) {
	t.Parallel()
	w, issue := checkEventWorld(t)
	st := bob.sign(t, 1631, 2500, nostr.Tag{"a", "30617:" + alice.pk + ":" + w.id}, nostr.Tag{"e", issue.ID, "", "root"})
	w.seed(st)
	dead := "ws://127.0.0.1:1"
	full := append([]string{"repo", "check-event", st.ID, "--json", "--timeout", "2s", "--home", w.home["ROSTER_HOME"], "--relay", dead}, relayArgs(w.relays)...)
	r := invocation{Env: w.home, Dir: w.dir, Now: time.Unix(10_000, 0)}.roster(t, full...)
	if r.Code != cmdutil.ExitIncomplete {
		t.Fatalf("exit %d, want 4\n%s%s", r.Code, r.Out, r.Err)
	}
}

func relayURLs(w *mutWorld) []string {
	var out []string
	for _, r := range w.relays {
		out = append(out, r.URL())
	}
	return out
}

// A moderator's status counts from their effective start; their kind 30618
// state never does (exit 5, not-confirmed), a confirmed maintainer's does.
func TestCheckEventModeratorStatusYesStateNo(t *testing.T) {
	t.Parallel()
	w := newMutWorld(t, 1)
	w.seed(leadShaped(t, w.id)...)
	issue := erin.sign(t, 1621, 300, nostr.Tag{"a", "30617:" + alice.pk + ":" + w.id})
	status := dave.sign(t, 1632, 500, nostr.Tag{"a", "30617:" + alice.pk + ":" + w.id}, nostr.Tag{"e", issue.ID, "", "root"})
	daveState := dave.state(t, w.id, 1100, strings.Repeat("cd", 20))
	w.seed(issue, status, daveState)
	var doc map[string]any
	r := w.checkEvent(status.ID, "--json")
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &doc) != nil || doc["role"] != "moderator" || doc["action"] != "status" {
		t.Fatalf("moderator status: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	// State names only an identifier: the repository must be given.
	if r = w.checkEvent(daveState.ID, "--json"); r.Code != cmdutil.ExitUsage || !strings.Contains(r.Out, `"no-coordinate"`) {
		t.Fatalf("state without --repo: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	r = w.checkEvent(daveState.ID, "--json", "--repo", alice.naddr(w.id))
	if r.Code != cmdutil.ExitUnhealthy || json.Unmarshal([]byte(r.Out), &doc) != nil || doc["action"] != "state" || doc["reason"] != "not-confirmed" {
		t.Fatalf("moderator state: exit %d\n%s%s", r.Code, r.Out, r.Err)
	}
	for _, e := range w.relays[0].Stored(nostr.Filter{Kinds: []int{30618}, Authors: []string{bob.pk}}) {
		r = w.checkEvent(e.ID, "--json", "--repo", alice.naddr(w.id))
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
	late := bob.sign(t, 1632, 70, nostr.Tag{"a", "30617:" + bob.pk + ":" + w.id}, nostr.Tag{"e", issue.ID, "", "root"})
	w.seams.BeforeRecheck = func() { w.seed(late) }
	mine := func() int { return len(w.relays[0].Stored(nostr.Filter{Authors: []string{alice.pk}})) }
	stored := mine()
	r := w.run(alice, alice, 1000, "repo", "edit", "--add-maintainer", bob.npub(), "--json")
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Out, `"code": "concurrent-change"`) || !strings.Contains(r.Out, "role-scoped event "+late.ID) {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Out, r.Err)
	}
	if mine() != stored {
		t.Fatalf("the relay stores %d events by alice, want %d: something was published", mine(), stored)
	}
}
