package graph

import "testing"

// maintainers.md "Authorization summary": the whole table, every actor
// against every action (maintainers.md authorization summary: one function
// answers whether a pubkey may author kind 30618 state, merges, or
// status/label/subject/cover-note events at a time).
//
//	Actor                    30618 state  merge  status/labels/subject/cover note
//	Resolved lead            yes          yes    yes
//	Confirmed co-maintainer  yes          yes    yes
//	Confirmed moderator      no           no     yes
//	Invitee                  no           no     no
//	Outsider                 no           no     no
func TestAuthorizationSummaryTable(t *testing.T) {
	r := resolve(t, "alice",
		ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>", "100"}, []string{"m", "<carol>", "200"}, []string{"o", "<dave>", "100"},
			[]string{"maintainers", "<alice>", "<bob>", "<carol>"}),
		ann(t, "bob", 300, []string{"M", "<alice>", "100"}, []string{"m", "<bob>", "100"}, []string{"maintainers", "<alice>", "<bob>"}),
		ann(t, "dave", 300, []string{"o", "<dave>", "100"}, []string{"maintainers"}),
		ann(t, "erin", 300, []string{"M", "<alice>"}, []string{"m", "<erin>"}, []string{"maintainers", "<alice>", "<erin>"}),
	)
	if r.Lead != pk("alice") {
		t.Fatalf("lead %q, want alice", r.Lead)
	}
	all := []Action{ActionState, ActionMerge, ActionStatus, ActionLabel, ActionSubject, ActionCoverNote}
	table := []struct {
		actor string
		want  []bool // in the order of all
	}{
		{"alice", []bool{true, true, true, true, true, true}},       // resolved lead
		{"bob", []bool{true, true, true, true, true, true}},         // confirmed co-maintainer
		{"dave", []bool{false, false, true, true, true, true}},      // confirmed moderator
		{"carol", []bool{false, false, false, false, false, false}}, // invitee (alice assigns, no acceptance)
		{"erin", []bool{false, false, false, false, false, false}},  // outsider (self-declared, never assigned)
	}
	for _, row := range table {
		for i, act := range all {
			if got := r.Authorized(pk(row.actor), act, 1_000); got != row.want[i] {
				t.Errorf("%s may author %s: %v, want %v", row.actor, act, got, row.want[i])
			}
		}
	}
}
