package preflight

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/suggest"
)

// Rule (errors and advice name the next command, each once, for the person
// who runs it): the guidance of a plan — what --json prints as "guidance" —
// names `roster repo follow-lead` once for each person who runs it. Carol
// accepts in a three-person repository: bob must follow her acceptance (his
// command, run by him), and her own history lacks bob's start (her
// command).
func TestGuidanceNamesEachCommandOnce(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"name", "My Project"})
	w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	w.run("alice", "alice", 3000, Intent{Action: ActAcknowledge, Subject: pk("bob")})
	w.run("alice", "alice", 4000, Intent{Action: ActAdd, Subject: pk("carol")})
	p := w.run("carol", "alice", 5000, Intent{Action: ActAccept})

	bob := npub(pk("bob"))
	var own, bobs []string
	for _, g := range p.Guidance {
		if g.Command == nil || g.Command.Line() != graph.CommandFollowLead().Line() {
			continue
		}
		switch by := g.Command.RunBy.String(); by {
		case "":
			own = append(own, g.Text(suggest.Selectors{}))
		case bob:
			bobs = append(bobs, g.Text(suggest.Selectors{}))
		default:
			t.Errorf("follow-lead run by %q: %s", by, g.Text(suggest.Selectors{}))
		}
	}
	if len(own) != 1 || len(bobs) != 1 {
		t.Fatalf("roster repo follow-lead named %d times for carol and %d for bob, want once each:\n%s", len(own), len(bobs), guidanceText(p))
	}
	if want := "other co-maintainers (" + bob + ")"; !strings.Contains(bobs[0], want) || !strings.HasSuffix(bobs[0], "  # run by "+bob) {
		t.Errorf("bob's follow-lead line lacks %q or his name as its runner: %s", want, bobs[0])
	}
	if want := "record the start of " + bob; !strings.Contains(own[0], want) || strings.Contains(own[0], "# run by") {
		t.Errorf("carol's own follow-lead line lacks %q or names another runner: %s", want, own[0])
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
