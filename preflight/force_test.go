package preflight

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/suggest"
)

// Rule (--force is refused for everything except the state-only case, which
// is deferred to a later step); maintainers.md "--force has one narrow add/accept meaning"
// and "There is no --force shortcut for combining several membership
// decisions". The refusal says the state-only case is deferred and names the
// command to run instead.
func TestForceIsRefusedOutsideAddAndAcceptNamingTheRerun(t *testing.T) {
	w := twoPerson(t)
	for _, it := range []Intent{
		{Action: ActRemove, Subject: pk("bob"), Force: true},
		{Action: ActLead, Lead: pk("bob"), Force: true},
		{Action: ActAcknowledge, Subject: pk("bob"), Force: true},
	} {
		r := w.refused("alice", "alice", 3000, it, "force-not-available")
		rerun := withoutForce(it).Command()
		for _, s := range []string{"--force is not available for " + string(it.Action),
			"instead rerun without --force:", rerun} {
			if !strings.Contains(r.Message, s) {
				t.Fatalf("%s: message lacks %q:\n%s", it.Command(), s, r.Message)
			}
		}
		if len(r.Commands) != 1 || r.Commands[0].String() != rerun || strings.Contains(rerun, "--force") {
			t.Fatalf("%s: commands %v", it.Command(), r.Commands)
		}
	}
	r := w.refused("alice", "alice", 3000, Intent{Action: ActRemove, Subject: pk("bob"), Force: true}, "force-not-available")
	if !strings.Contains(r.Message, "no --force shortcut for combining several membership decisions") {
		t.Fatal(r.Message)
	}
	r = w.refused("bob", "alice", 3000, Intent{Action: ActLeave, Force: true}, "force-not-available")
	if r.Commands[0].String() != "roster repo leave" {
		t.Fatal(r.Commands)
	}
}

// "For add and accept only, --force may override a conflict limited to kind
// 30618 refs by choosing the command runner's current repository state":
// outside a checkout there is no such state, so --force is refused naming
// the checkout; without --force the conflict names publishing the aligned
// state and the rerun.
func TestForceOnStateOnlyConflictNeedsTheRunnersCheckout(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100)
	w.state("alice", 150, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidA})
	w.announce("bob", 200, []string{"M", "<alice>", "200"}, []string{"m", "<bob>", "200"}, []string{"maintainers", "<alice>", "<bob>"})
	w.state("bob", 300, []string{"HEAD", "ref: refs/heads/main"}, []string{"refs/heads/main", oidB})
	it := Intent{Action: ActAdd, Subject: pk("bob"), Force: true}
	_, r := w.prepareState("alice", 1000, it, nil)
	if r == nil || r.Code != "force-needs-checkout" || !strings.Contains(r.Message, "outside a checkout") {
		t.Fatalf("want force-needs-checkout, got %+v", r)
	}
	rerun := withoutForce(it).Command()
	_, r = w.prepareState("alice", 1000, withoutForce(it), nil)
	if r == nil || r.Code != "state-conflict" || len(r.Commands) != 2 || words(r.Commands[0]) != "roster repo state publish" || words(r.Commands[1]) != rerun {
		t.Fatalf("%v\n%s", r.Commands, r.Message)
	}
	// From a checkout the conflict also offers the --force rerun.
	_, r = w.prepareState("alice", 1000, withoutForce(it), map[string]string{"HEAD": "ref: refs/heads/main", "refs/heads/main": oidA})
	if r == nil || len(r.Commands) != 3 || words(r.Commands[2]) != it.Command() {
		t.Fatalf("%+v", r)
	}
}

// --force on an add with no state-only conflict is not applicable and names the rerun.
func TestForceWithoutStateConflictIsNotApplicable(t *testing.T) {
	w := twoPerson(t)
	it := Intent{Action: ActAdd, Subject: pk("carol"), Force: true}
	r := w.refused("alice", "alice", 3000, it, "force-not-applicable")
	if len(r.Commands) != 1 || r.Commands[0].String() != withoutForce(it).Command() || !strings.Contains(r.Message, "state-only conflict") {
		t.Fatalf("%+v", r)
	}
}

func words(c suggest.Command) string { return strings.Join(c.Words(), " ") }
