package preflight

import (
	"strings"
	"testing"
)

// Rule (a join error shows ... history differences ... and a ref-by-ref
// state comparison in both directions): Bob's component imports Dave, and
// Bob's newer state would supply the joined state. The refusal carries the
// state before and after, the refs the join would change and their
// inverse, Bob's and Dave's states against the joined one, and the
// history; --force stays unavailable.
func TestJoinRefusalCarriesStateComparisonAndHistory(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 110, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"m", "<dave>", "200"}, []string{"maintainers", "<alice>", "<bob>", "<dave>"})
	w.announce("dave", 300, []string{"M", "<bob>", "300"}, []string{"m", "<dave>", "300"}, []string{"maintainers", "<bob>", "<dave>"})
	w.state("bob", 400, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	_, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r == nil || r.Code != "repository-join" {
		t.Fatalf("refusal %+v", r)
	}
	st, _ := r.Details["state"].(map[string]any)
	if st == nil {
		t.Fatalf("no state comparison: %v", r.Details)
	}
	want := []RefAction{{Action: "update", Ref: "refs/heads/main", From: oidA, To: oidB}}
	inv := []RefAction{{Action: "update", Ref: "refs/heads/main", From: oidB, To: oidA}}
	if got, _ := st["join_would"].([]RefAction); len(got) != 1 || got[0] != want[0] {
		t.Fatalf("join_would %v", st["join_would"])
	}
	if got, _ := st["inverse"].([]RefAction); len(got) != 1 || got[0] != inv[0] {
		t.Fatalf("inverse %v", st["inverse"])
	}
	if _, ok := r.Details["history"].([]map[string]any); !ok {
		t.Fatalf("no history: %v", r.Details)
	}
	if !strings.Contains(r.Message, "the join would change:") || !strings.Contains(r.Message, "--force is not available for a repository join") {
		t.Fatal(r.Message)
	}
}
