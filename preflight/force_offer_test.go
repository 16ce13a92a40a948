package preflight

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
)

// "--force is offered last, with its loss in words": every state-only
// conflict run from a checkout offers the alignment commands first, then
// the rerun, and --force only as the last command, whose comment, the
// message and details.force_words say what it would remove or rewind.
func TestForceIsOfferedLastWithItsLossInWords(t *testing.T) {
	const oidC = "cccccccccccccccccccccccccccccccccccccccc"
	stateWorld := func() *world {
		w := &world{t: t}
		w.announce("alice", 100)
		w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA}, []string{"refs/heads/dev", oidB})
		w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
		return w
	}
	accept := func(w *world, local map[string]string, tracking []TrackingRef) *Refusal {
		_, r := Prepare(Input{Author: pk("bob"), Selected: graph.NewCoordinate(pk("alice"), repoID), Events: w.events, Now: 2000,
			Intent: Intent{Action: ActAccept}, LocalRefs: local, Tracking: tracking})
		return r
	}
	confirmingAdd := func() *Refusal {
		w := &world{t: t}
		w.announce("alice", 100)
		w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
		w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
		w.state("bob", 300, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
		_, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": oidA})
		return r
	}
	cases := []struct {
		name  string
		r     *Refusal
		words string
		first string // the first command
	}{
		{"a branch missing everywhere", accept(stateWorld(), map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": oidA}, nil),
			"--force would remove branch dev from the repository state", "roster repo accept"},
		{"a branch behind its remote-tracking branch", accept(stateWorld(), map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": oidC},
			[]TrackingRef{{Remote: "origin", Ref: "refs/heads/main", OID: oidA, LocalBehind: true}, {Remote: "origin", Ref: "refs/heads/dev", OID: oidB}}),
			"--force would rewind branch main from " + oidA + " to " + oidC + " in the repository state", "git merge --ff-only origin/main"},
		{"a diverged branch and a stale remote-tracking branch", accept(stateWorld(), map[string]string{"HEAD": "ref: refs/heads/dev", "refs/heads/main": oidC, "refs/heads/dev": oidB},
			[]TrackingRef{{Remote: "upstream", Ref: "refs/heads/main", OID: oidC}}),
			"--force would move branch main from " + oidA + " to " + oidC + " in the repository state", "git fetch upstream"},
		{"a confirming add", confirmingAdd(), "--force would move branch main from " + oidB + " to " + oidA + " in the repository state", "roster repo state publish"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.r
			if r == nil || r.Code != "state-conflict" {
				t.Fatalf("want state-conflict, got %+v", r)
			}
			if r.Details["force_words"] != c.words || !strings.Contains(r.Message, "\n"+c.words) {
				t.Fatalf("force_words %q, want %q\n%s", r.Details["force_words"], c.words, r.Message)
			}
			n := len(r.Commands)
			if n < 2 || r.Commands[0].Line() != c.first {
				t.Fatalf("first command %v, want %s", commandLines(r.Commands), c.first)
			}
			for i, cmd := range r.Commands {
				if cmd.Has("--force") != (i == n-1) {
					t.Fatalf("--force must be the last command only: %v", commandLines(r.Commands))
				}
			}
			if !strings.Contains(r.Commands[n-1].Comment, strings.TrimPrefix(c.words, "--force ")) {
				t.Fatalf("the --force command does not say its loss: %q", r.Commands[n-1].Comment)
			}
		})
	}
}

// Outside a checkout there is nothing for --force to keep: the loss is
// still said, --force is not offered.
func TestForceIsNotOfferedOutsideACheckout(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	w.state("bob", 300, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	_, r := w.prepareState("alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")}, nil)
	if r == nil || r.Code != "state-conflict" || !strings.Contains(r.Message, "--force needs your checkout") {
		t.Fatalf("%+v", r)
	}
	for _, c := range r.Commands {
		if c.Has("--force") {
			t.Fatalf("--force offered outside a checkout: %v", commandLines(r.Commands))
		}
	}
}
