package sections

import (
	"context"
	"fmt"
	"testing"

	"github.com/roster-cli/roster/workspace/sections/sectionstest"
)

// fullWorkspace is an opened workspace with grantees readers besides the
// owner, assignments assigned channels and one section.
func fullWorkspace(t *testing.T, owner testKey, grantees, assignments int) *Workspace {
	t.Helper()
	key, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	w := &Workspace{Community: "relay.example", Owner: owner.pk, Revision: 1, LayoutRevision: 1, KeyEpoch: 1, Key: key,
		Sections: []Section{{ID: uuidN('a', 0), Rank: 0, Label: "Alpha"}}, Readers: map[string]Role{owner.pk: RoleOwner}}
	for i := 0; i < grantees; i++ {
		w.Readers[fmt.Sprintf("%064x", i+1)] = RoleViewer
	}
	for i := 0; i < assignments; i++ {
		w.Assignments = append(w.Assignments, ProjectedAssignment{ChannelID: uuidN('c', i), SectionID: uuidN('a', 0), Revision: 1})
	}
	return w
}

// nip-sw.md: "maximum 100 sections, 1,000 assignments, and 256 active
// delegate grants", with the numbers from the fixture's limits. A grant
// that would exceed the grant limit is refused before anything is signed;
// changing the role of an existing grantee is not a new grant.
func TestGrantBodyRefusesAGrantPastTheFixtureGrantLimit(t *testing.T) {
	limit := sectionstest.Load(t).Limits["grants"]
	owner := newKey(t)
	w := fullWorkspace(t, owner, limit, 0)
	_, err := w.GrantBody(context.Background(), owner.s, newKey(t).pk, RoleViewer)
	if re, ok := err.(*RuleError); !ok || re.Rule != "grants-limit" {
		t.Fatalf("grant number %d: %v", limit+1, err)
	}
	existing := fmt.Sprintf("%064x", 1)
	if _, err := w.GrantBody(context.Background(), owner.s, existing, RoleMover); err != nil {
		t.Fatalf("changing an existing grantee's role at the limit: %v", err)
	}
	w = fullWorkspace(t, owner, limit-1, 0)
	if _, err := w.GrantBody(context.Background(), owner.s, newKey(t).pk, RoleViewer); err != nil {
		t.Fatalf("grant number %d: %v", limit, err)
	}
}

// A move that would assign a channel past the fixture's assignment limit is
// refused before signing; moving an assigned channel replaces its
// assignment and is always within the limit.
func TestMoveBodyRefusesAnAssignmentPastTheFixtureAssignmentLimit(t *testing.T) {
	limit := sectionstest.Load(t).Limits["assignments"]
	owner := newKey(t)
	w := fullWorkspace(t, owner, 0, limit)
	_, err := w.MoveBody(uuidN('c', limit), "Alpha")
	if re, ok := err.(*RuleError); !ok || re.Rule != "assignments-limit" {
		t.Fatalf("assignment number %d: %v", limit+1, err)
	}
	if _, err := w.MoveBody(uuidN('c', 0), "Alpha"); err != nil {
		t.Fatalf("moving an assigned channel at the limit: %v", err)
	}
}
