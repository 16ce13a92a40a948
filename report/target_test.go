package report

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
)

// "Every write prints, before its preview, target repository: <name>
// <naddr> (from --repo | nostr.repo | remote <name> | ...); --json carries
// target.source. When two sources disagree ... the write says so and uses
// --repo."
func TestTargetNamesTheRepositoryAndWhereItWasSelected(t *testing.T) {
	pk := strings.Repeat("ab", 32)
	other := strings.Repeat("cd", 32)
	c := graph.NewCoordinate(pk, "widgets")
	naddr := gitstate.EncodeNaddr(c, nil)
	for _, tt := range []struct {
		sel              gitstate.Selection
		source, from     string
		remote           string
		overridden, note bool
	}{
		{gitstate.Selection{Coordinate: c, Source: gitstate.SourceFlag, Detail: naddr}, TargetFlag, "--repo", "", false, false},
		{gitstate.Selection{Coordinate: c, Source: gitstate.SourceFlag, Detail: naddr, Via: "ROSTER_REPO"}, TargetEnv, "ROSTER_REPO", "", false, false},
		{gitstate.Selection{Coordinate: c, Source: gitstate.SourceGitConfig, Detail: "git config nostr.repo"}, TargetGitConfig, "nostr.repo", "", false, false},
		{gitstate.Selection{Coordinate: c, Source: gitstate.SourceOrigin, Detail: "remote origin"}, TargetRemote, "remote origin", "origin", false, false},
		{gitstate.Selection{Coordinate: c, Source: gitstate.SourceFlag, Detail: "remote up",
			Disagrees: []gitstate.Candidate{{Coordinate: graph.NewCoordinate(other, "widgets"), From: "git config nostr.repo"}}}, TargetFlag, "--repo remote up", "up", true, true},
	} {
		tg := TargetOf(&discovery.View{Selection: tt.sel})
		if tg.Source != tt.source || tg.From != tt.from || tg.Naddr != naddr {
			t.Fatalf("%+v: %+v", tt.sel, tg)
		}
		if (tg.Remote == nil) != (tt.remote == "") || tg.Remote != nil && *tg.Remote != tt.remote {
			t.Fatalf("%+v: remote %v", tt.sel, tg.Remote)
		}
		lines := tg.Lines()
		if lines[0] != "target repository: (unnamed) "+naddr+" (from "+tt.from+")" {
			t.Fatalf("line %q", lines[0])
		}
		if tt.note != (len(lines) == 2) || tt.overridden != (len(tg.Overridden) == 1) {
			t.Fatalf("overridden: %v %v", tg.Overridden, lines)
		}
		if tt.note && !strings.Contains(lines[1], gitstate.EncodeNaddr(graph.NewCoordinate(other, "widgets"), nil)) {
			t.Fatalf("the note names the other coordinate: %q", lines[1])
		}
	}
}
