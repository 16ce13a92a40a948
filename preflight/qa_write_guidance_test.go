package preflight

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// Rule (errors and advice name the next command, each once): the guidance
// of a plan — what --json prints as "guidance" — names `roster repo
// follow-lead` once, with everyone it concerns. Carol accepts in a
// three-person repository: bob must follow her acceptance, and her own
// history lacks bob's start; both are the same command.
func TestGuidanceNamesEachCommandOnce(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"name", "My Project"})
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	w.run("alice", "alice", 3000, Intent{Action: ActAcknowledge, Subject: pk("bob")})
	w.run("alice", "alice", 4000, Intent{Action: ActAdd, Subject: pk("carol")})
	p := w.run("carol", "alice", 5000, Intent{Action: ActAccept})

	var follow []string
	for _, g := range p.Guidance {
		if g.Command != nil && g.Command.Equal(graph.CommandFollowLead()) {
			follow = append(follow, g.Text(suggest.Selectors{}))
		}
	}
	if len(follow) != 1 {
		t.Fatalf("roster repo follow-lead named on %d lines, want 1:\n%s", len(follow), guidanceText(p))
	}
	bob := npub(pk("bob"))
	for _, want := range []string{"other co-maintainers (" + bob + ")", "record the start of " + bob, suggest.GuidanceSeparator} {
		if !strings.Contains(follow[0], want) {
			t.Errorf("the follow-lead line lacks %q: %s", want, follow[0])
		}
	}
	seen := map[string]bool{}
	for _, g := range GuidanceText(p.Guidance, suggest.Selectors{}) {
		if seen[g] {
			t.Errorf("line repeated: %q", g)
		}
		seen[g] = true
	}
}

// Rule: identical advice is kept once, "record the ..." parts sharing a
// command merge into one sentence, and advice without a command stays as
// written, in order.
func TestMergeGuidanceKeepsOrderAndFoldsRecords(t *testing.T) {
	fl := graph.CommandFollowLead()
	in := []suggest.Advice{
		suggest.Do("a will be asked", suggest.Roster("x")),
		suggest.Note("fetch before you push"),
		suggest.Do("record the start of A", fl),
		suggest.Note("fetch before you push"),
		suggest.Do("others (B) should record this", fl),
		suggest.Do("record the end of C", fl),
		suggest.Note("the lead can point to you"),
	}
	got := strings.Join(GuidanceText(mergeGuidance(in), suggest.Selectors{}), "\n")
	want := strings.Join([]string{
		"a will be asked with: roster x",
		"fetch before you push",
		"record the start of A and the end of C; also others (B) should record this with: roster repo follow-lead",
		"the lead can point to you",
	}, "\n")
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// guidanceText is a plan's guidance as --json prints it (no selectors).
func guidanceText(p *Plan) string {
	return strings.Join(GuidanceText(p.Guidance, suggest.Selectors{}), "\n")
}
