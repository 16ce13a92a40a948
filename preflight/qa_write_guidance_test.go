package preflight

import (
	"strings"
	"testing"
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
		if _, cmd, ok := GuidanceCommand(g); ok && cmd == "roster repo follow-lead" {
			follow = append(follow, g)
		}
	}
	if len(follow) != 1 {
		t.Fatalf("roster repo follow-lead named on %d lines, want 1:\n%s", len(follow), strings.Join(p.Guidance, "\n"))
	}
	bob := npub(pk("bob"))
	for _, want := range []string{"other co-maintainers (" + bob + ")", "record the start of " + bob, GuidanceSeparator} {
		if !strings.Contains(follow[0], want) {
			t.Errorf("the follow-lead line lacks %q: %s", want, follow[0])
		}
	}
	seen := map[string]bool{}
	for _, g := range p.Guidance {
		if seen[g] {
			t.Errorf("line repeated: %q", g)
		}
		seen[g] = true
	}
}

// Rule: identical advice is kept once, "record the ..." parts sharing a
// command merge into one sentence, and advice without a command (or with
// the command on its own next line) stays as written, in order.
func TestMergeGuidanceKeepsOrderAndFoldsRecords(t *testing.T) {
	in := []string{
		"a will be asked with: roster x",
		"fetch before you push",
		"record the start of A with: roster repo follow-lead",
		"fetch before you push",
		"others (B) should record this with: roster repo follow-lead",
		"record the end of C with: roster repo follow-lead",
		"the lead can point to you with:",
		"  roster repo edit --lead-maintainer X",
	}
	got := strings.Join(mergeGuidance(in), "\n")
	want := strings.Join([]string{
		"a will be asked with: roster x",
		"fetch before you push",
		"record the start of A and the end of C; also others (B) should record this with: roster repo follow-lead",
		"the lead can point to you with:",
		"  roster repo edit --lead-maintainer X",
	}, "\n")
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
