package change_test

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/repo/change"
	"github.com/roster-cli/roster/suggest"
)

// Rule (errors and advice name the next command): the "next:" advice of a
// membership preview names each command once for each person who runs it,
// with everything it records, instead of one `roster repo follow-lead` line
// per transition. Carol accepts her invitation in the demo repository: her
// history is pending bob's start and dave's end (one command of hers), and
// bob must follow her acceptance too (his, run by him).
func TestMembershipPreviewNamesEachGuidanceCommandOnce(t *testing.T) {
	t.Parallel()
	next := clitest.NextSection(t, clitest.CarolPreviewsAcceptance(t))
	if n := strings.Count(next, "roster repo follow-lead"); n != 2 {
		t.Fatalf("roster repo follow-lead named %d times, want once for carol and once for bob:\n%s", n, next)
	}
	for _, name := range []string{"bob", "dave"} {
		if npub := clitest.DemoNpub(t, name); !strings.Contains(next, npub) {
			t.Errorf("%s (%s) is not named in:\n%s", name, npub, next)
		}
	}
	lines := strings.Split(strings.TrimRight(next, "\n"), "\n")
	for i, l := range lines {
		for _, m := range lines[:i] {
			if l == m {
				t.Errorf("line repeated: %q", l)
			}
		}
	}
}

// Rule: advice that shares no command, or has none, is printed as written,
// and a shared command is printed once with the user's selectors, then each
// part it covers.
func TestGuidanceLinesKeepUnsharedAdviceAsWritten(t *testing.T) {
	t.Parallel()
	fl := suggest.Roster("repo", "follow-lead")
	in := suggest.Group([]suggest.Advice{suggest.Do("a will be asked", suggest.Roster("x")), suggest.Note("fetch before you push"),
		suggest.Note("fetch before you push"), suggest.Do("bob records it", fl), suggest.Do("carol records it", fl)})
	got := strings.Join(change.GuidanceLines(in, suggest.Selectors{Repo: "origin"}), "\n")
	want := "a will be asked with: roster x\nfetch before you push\n" +
		"roster repo follow-lead --repo origin  # the same command, for each of:\n  bob records it\n  carol records it"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
