package preflight

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/golden"
	"github.com/roster-cli/roster/graph"
)

// event signs a non-announcement event by alias for the role-scoped inputs.
func (w *world) event(author string, kind int, created int64, tags ...[]string) *nostr.Event {
	w.t.Helper()
	evt := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(created), Tags: expandTags(tags)}
	if err := evt.Sign(golden.SecretKey(author)); err != nil {
		w.t.Fatal(err)
	}
	return evt
}

// joinWithOldLeadHistory: Bob led his own same-identifier repository from
// 50 to 100 (a closed self-M), then acknowledged Alice; at 70 he closed
// Erin's issue there. Alice's add confirms him at once and imports that
// history, which makes his old status authoritative.
func joinWithOldLeadHistory(t *testing.T) (*world, []*nostr.Event) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.announce("bob", 100, []string{"M", "<bob>", "50", "100"}, []string{"M", "<alice>", "100"}, []string{"m", "<bob>", "100"},
		[]string{"maintainers", "<alice>", "<bob>"})
	a := []string{"a", "30617:<bob>:" + repoID}
	issue := w.event("erin", actions.KindIssue, 60, a, []string{"subject", "it breaks"})
	closed := w.event("bob", actions.KindStatusClosed, 70, a, []string{"e", issue.ID, "", "root"})
	return w, []*nostr.Event{issue, closed}
}

// "Pre-existing role-scoped actions become newly visible": a join that
// imports role history making an earlier status authoritative is refused,
// naming the event, its author and the result it would change.
func TestJoinThatNewlyAuthorizesAnOldStatusIsRefused(t *testing.T) {
	w, acts := joinWithOldLeadHistory(t)
	_, r := Prepare(Input{Author: pk("alice"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 1000,
		Intent: Intent{Action: ActAdd, Subject: pk("bob")}, Actions: acts})
	if r == nil {
		t.Fatal("the add was planned; want newly-authorized-action")
	}
	if r.Code != "newly-authorized-action" {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	for _, want := range []string{acts[0].ID, acts[1].ID, npub(pk("bob")), "status open -> closed", "1970-01-01T00:01:10Z"} {
		if !strings.Contains(r.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, r.Message)
		}
	}
	changes := r.Details["changes"].([]map[string]any)
	if len(changes) != 1 || changes[0]["result"] != "status" || changes[0]["to"] != "closed" {
		t.Fatalf("details %+v", changes)
	}
}

// The same add without the old status, or with its author authorized only
// by being the issue's own author, is planned and says what it compared.
func TestJoinWithNoResultChangeListsTheComparisonAsChecked(t *testing.T) {
	w, acts := joinWithOldLeadHistory(t)
	own := w.event("erin", actions.KindStatusClosed, 80, []string{"a", "30617:<bob>:" + repoID}, []string{"e", acts[0].ID, "", "root"})
	p, r := Prepare(Input{Author: pk("alice"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 1000,
		Intent: Intent{Action: ActAdd, Subject: pk("bob")}, Actions: append(acts, own)})
	if r != nil {
		t.Fatalf("refused %s: %s", r.Code, r.Message)
	}
	found := false
	for _, c := range p.State.Checked {
		found = found || strings.HasPrefix(c, "role-scoped results before and after") && strings.Contains(c, "of 1 issue(s)") && strings.Contains(c, "from 2 status")
	}
	if !found {
		t.Fatalf("checked %q", p.State.Checked)
	}
	for _, c := range p.State.NotChecked {
		if strings.Contains(c, "newly authorize") {
			t.Fatalf("not_checked still lists %q", c)
		}
	}
}

// Events discovery's bounds left out make the comparison impossible: the
// change is refused rather than compared on part of the evidence.
func TestRoleActionsOverTheLimitRefuseTheChange(t *testing.T) {
	w, acts := joinWithOldLeadHistory(t)
	_, r := Prepare(Input{Author: pk("alice"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 1000,
		Intent: Intent{Action: ActAdd, Subject: pk("bob")}, Actions: acts[:1], ActionsDropped: 1})
	if r == nil || r.Code != "role-actions-over-limit" {
		t.Fatalf("refusal %+v", r)
	}
}

// runWith prepares it with the role-scoped events acts, requires success,
// signs the replacement and adds it to w; everybody selects Alice's
// coordinate.
func runWith(w *world, acts []*nostr.Event, author string, now int64, it Intent) *Plan {
	w.t.Helper()
	p, r := Prepare(Input{Author: pk(author), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: now, Intent: it, Actions: acts})
	if r != nil {
		w.t.Fatalf("%s as %s at %d: refused %s: %s", it.Command(), author, now, r.Code, r.Message)
	}
	if evt := p.Event(); evt != nil {
		if err := evt.Sign(golden.SecretKey(author)); err != nil {
			w.t.Fatal(err)
		}
		w.events = append(w.events, evt)
	}
	return p
}

// The ordinary workflow never trips the comparison: invitation,
// acceptance, acknowledgement, a second maintainer, follow-lead and a
// removal keep every status, label, subject and cover note as it was,
// whoever published them and whenever (one dated in the future included:
// a maintainer being removed cannot block the removal with it).
func TestOrdinaryWorkflowChangesNoRoleScopedResult(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	a := []string{"a", "30617:<alice>:" + repoID}
	issue := w.event("erin", actions.KindIssue, 50, a)
	root := []string{"e", issue.ID, "", "root"}
	acts := []*nostr.Event{issue,
		w.event("bob", actions.KindStatusClosed, 500, a, root), // before his invitation
		w.event("bob", actions.KindStatusDraft, 1500, a, root), // invited, not accepted
		w.event("carol", 1985, 2700, a, root, []string{"L", "#t"}, []string{"l", "early", "#t"}),
		w.event("alice", actions.KindCoverNote, 600, a, root),
		w.event("bob", actions.KindStatusApplied, 99_999, a, root), // dated in the future
	}
	runWith(w, acts, "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	runWith(w, acts, "bob", 2000, Intent{Action: ActAccept})
	runWith(w, acts, "alice", 2100, Intent{Action: ActAcknowledge, Subject: pk("bob")})
	acts = append(acts, w.event("bob", 1985, 2200, a, root, []string{"L", "#subject"}, []string{"l", "by bob", "#subject"}))
	runWith(w, acts, "alice", 2500, Intent{Action: ActAdd, Subject: pk("carol")})
	runWith(w, acts, "carol", 3000, Intent{Action: ActAccept})
	runWith(w, acts, "alice", 3100, Intent{Action: ActAcknowledge, Subject: pk("carol")})
	runWith(w, acts, "bob", 3200, Intent{Action: ActFollowLead})
	acts = append(acts, w.event("carol", actions.KindStatusClosed, 3500, a, root))
	p := runWith(w, acts, "alice", 4000, Intent{Action: ActRemove, Subject: pk("carol")})
	// The future-dated status is not compared.
	if !slices.ContainsFunc(p.State.Checked, func(s string) bool { return strings.Contains(s, "from 6 status") }) {
		t.Fatalf("checked %q", p.State.Checked)
	}
	runWith(w, acts, "alice", 4100, Intent{Action: ActRemove, Subject: pk("bob")})
}
