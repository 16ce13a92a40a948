package preflight

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
)

// Rule (`u` is compared both ways): the inviting repository is a fork of
// an upstream and Bob's announcement names none: a different fork
// relationship, which blocks his acceptance like the reverse does.
func TestUpstreamIsComparedBothWays(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"u", "https://git.example/upstream.git"})
	w.announce("bob", 150)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	r := w.refused("bob", "alice", 2000, Intent{Action: ActAccept}, "identity-conflict")
	changes, _ := r.Details["identity_changes"].([]IdentityChange)
	if len(changes) != 1 || changes[0].Field != "u" || changes[0].Before != "" || changes[0].After != "https://git.example/upstream.git" {
		t.Fatalf("identity changes %+v", changes)
	}
}

// Rule (something is compared when `r` is absent): Bob's announcement
// carries no `r`; his checkout's root commit stands for it. A root other
// than the inviting repository's `r` is an identity conflict; the same root
// is none.
func TestCheckoutRootStandsForAMissingEarliestUniqueCommit(t *testing.T) {
	euc := strings.Repeat("a", 40)
	w := &world{t: t}
	w.announce("alice", 100, []string{"r", euc, "euc"})
	w.announce("bob", 150)
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	prep := func(root string) (*Plan, *Refusal) {
		return Prepare(Input{Author: pk("bob"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 2000,
			Intent: Intent{Action: ActAccept}, RootCommit: root})
	}
	_, r := prep(strings.Repeat("c", 40))
	if r == nil || r.Code != "identity-conflict" || !strings.Contains(r.Message, "this checkout's root commit is "+strings.Repeat("c", 40)) {
		t.Fatalf("refusal %+v", r)
	}
	if _, r := prep(euc); r != nil && r.Code == "identity-conflict" {
		t.Fatalf("the same root refused: %s", r.Message)
	}
	if _, r := prep(""); r != nil && r.Code == "identity-conflict" {
		t.Fatalf("no checkout refused: %s", r.Message)
	}
}
