package repo_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/repo"
	"github.com/roster-cli/roster/suggest"
)

// Rule (each warning's command once per run): advisories that share a
// command print it once, under the first of them, and say each of the
// others without repeating the command.
func TestAdvisoriesSharingACommandPrintItOnce(t *testing.T) {
	t.Parallel()
	w := clitest.BobTookTheLead(t)
	w.Ok(clitest.Bob, clitest.Bob, 5100, "repo", "edit", "--add-maintainer", clitest.Carol.Npub())
	w.Ok(clitest.Carol, clitest.Bob, 5200, "repo", "accept")
	// Alice's checkout still selects her coordinate (follow-lead) and her
	// history lacks Carol's acceptance (synchronized by follow-lead too).
	r := w.Run(clitest.Alice, clitest.Alice, 6000, "repo")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if n := strings.Count(r.Err, "roster repo follow-lead"); n != 1 {
		t.Fatalf("follow-lead printed %d times in the advisories, want once:\n%s", n, r.Err)
	}
	for _, want := range []string{
		"its lead pointer resolves to " + clitest.Bob.Npub() + "/" + w.Id + "\nswitch to the lead with: roster repo follow-lead",
		"the same command also takes care of this:\n  " + clitest.Carol.Npub() + " accepted maintainership at",
		"\n  synchronize your replicated membership history\n",
	} {
		if !strings.Contains(r.Err, want) {
			t.Fatalf("missing %q:\n%s", want, r.Err)
		}
	}
}

// Rule: only an advisory whose one command was given already is folded;
// one with a command of its own keeps it.
func TestFoldByCommandKeepsOtherCommands(t *testing.T) {
	t.Parallel()
	say, run := suggest.Say, suggest.Run
	follow, other := suggest.Roster("repo", "follow-lead"), suggest.Roster("repo", "edit", "--fix-maintainers")
	bs := []suggest.Block{
		{say("a\nswitch with: "), run(follow)},
		{say("b\nsync with:\n  "), run(follow)},
		{say("c\nrun: "), run(other)},
		{say("d\nfirst: "), run(other), say("\nthen: "), run(follow)},
	}
	gs := repo.FoldByCommand(bs)
	if len(gs) != 3 || len(gs[0].Also) != 1 || repo.Statement(gs[0].Also[0]).String() != "b\nsync" || len(gs[1].Also) != 0 || len(gs[2].Also) != 0 {
		t.Fatalf("folded %+v", gs)
	}
}
