package preflight

import (
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
