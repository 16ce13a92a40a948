package preflight

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
)

// roster's narrowing of --force: a state branch the checkout has only as a
// remote-tracking branch at another commit is removed by --force only when
// --drop names it; the offered --force carries the --drop, --force alone
// is refused naming it, a --drop of anything else is a usage refusal.
func TestForceRemovesARemoteTrackingOnlyBranchOnlyWithDrop(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA}, []string{"refs/heads/dev", oidB})
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	prepare := func(it Intent) (*Plan, *Refusal) {
		return Prepare(Input{Author: pk("bob"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 2000,
			Intent: it, ReadState: testReadState, LocalRefs: map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": oidA},
			Tracking: []TrackingRef{{Remote: "origin", Ref: "refs/heads/dev", OID: oidA}}})
	}
	_, r := prepare(Intent{Action: ActAccept})
	if r == nil || r.Code != "state-conflict" {
		t.Fatalf("%+v", r)
	}
	if last := r.Commands[len(r.Commands)-1].Line(); last != "roster repo accept --force --drop refs/heads/dev" {
		t.Fatalf("offered %q", last)
	}
	_, r = prepare(Intent{Action: ActAccept, Force: true})
	if r == nil || r.Code != "force-drop-unconfirmed" || !strings.Contains(r.Message, "refs/heads/dev (this checkout has origin/dev)") ||
		r.Commands[len(r.Commands)-1].Line() != "roster repo accept --force --drop refs/heads/dev" {
		t.Fatalf("%+v", r)
	}
	_, r = prepare(Intent{Action: ActAccept, Force: true}.WithDrops([]string{"refs/heads/dev", "refs/heads/main"}))
	if r == nil || r.Code != "drop-not-applicable" || !r.Usage {
		t.Fatalf("%+v", r)
	}
	p, r := prepare(Intent{Action: ActAccept, Force: true}.WithDrops([]string{"refs/heads/dev"}))
	if r != nil || p.State.Publish == nil || p.State.Publish.Refs["refs/heads/dev"] != "" || p.State.Publish.Refs["refs/heads/main"] != oidA {
		t.Fatalf("refusal %+v, plan %+v", r, p)
	}
}
