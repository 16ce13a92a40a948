package main

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// Rule (every printed command moves forward; the command to rerun is the
// user's own with only the mistake replaced): a relay URL with a typo is
// refused with the command the user ran, every flag they set kept
// (--strict, --json) and only --relay replaced, and pasting it with a
// real relay gets further.
func TestARelayTypoSuggestsTheUsersOwnCommandWithEveryFlag(t *testing.T) {
	t.Parallel()
	s := newSuggestScene(t)
	r := s.roster(t, s.alice, "repo", "health", "--strict", "--repo", s.naddr, "--relay", "wss//typo.example", "--json")
	e := wantError(t, r, cmdutil.ExitUsage, "usage")
	c := clitest.CommandStarting(t, e.Commands, "roster repo health")
	for _, want := range []string{"--strict", "--json", "--repo " + s.naddr, "--relay wss://<relay>"} {
		if !strings.Contains(c, want) {
			t.Errorf("the suggestion lacks %q: %q", want, c)
		}
	}
	if strings.Contains(c, "typo.example") {
		t.Errorf("the suggestion repeats the mistake: %q", c)
	}
	if got := s.wantFurther(t, r, s.alice, c); got.Code == cmdutil.ExitUsage {
		t.Fatalf("%q: exit %d\n%s%s", c, got.Code, got.Out, got.Err)
	}
}
