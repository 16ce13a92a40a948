package report

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Rule (project health judges each member as `repo health` does): a member
// whose lead announcement lacks the `maintainers` compatibility tag is
// healthy with a warning, and unhealthy under --strict (the lead, a
// current maintainer, can act on it); its lead and confirmed maintainers
// come with their names; a member the relays do not hold has no verdict.
func TestProjectRepositoryVerdictFollowsRepoHealth(t *testing.T) {
	leadSK, coSK := testkeys.Named("report-project-", "lead"), testkeys.Named("report-project-", "co")
	lead, co := testkeys.Pub(t, leadSK), testkeys.Pub(t, coSK)
	evs := []*nostr.Event{
		testkeys.Sign(t, leadSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 300, Tags: nostr.Tags{{"d", "r"}, {"M", lead}, {"m", co, "200"}}}),
		testkeys.Sign(t, coSK, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 200, Tags: nostr.Tags{{"d", "r"}, {"M", lead, "200"}, {"m", co, "200"}, {"maintainers", lead, co}}}),
	}
	sel := gitstate.Selection{Coordinate: graph.NewCoordinate(lead, "r")}
	v := (&discovery.View{Selection: sel, Now: 1000, Relays: []string{}}).Including(evs)
	v.Profiles = map[string]discovery.Profile{lead: {Name: "Lena"}, co: {Name: "Cole"}}
	addr := "30617:" + lead + ":r"
	for _, tc := range []struct {
		strict  bool
		verdict string
	}{{false, VerdictHealthy}, {true, VerdictUnhealthy}} {
		got := ProjectRepositoryOf(addr, "wss://hint.example", discovery.Many{Selection: sel, View: v}, tc.strict, false)
		if got.Status != RepositoryResolved || got.Health.Verdict != tc.verdict || got.Health.Warnings == 0 || got.Health.GatingWarnings == 0 {
			t.Fatalf("strict %v: %+v", tc.strict, got.Health)
		}
		if got.Lead == nil || got.Lead.Pubkey != lead || got.Lead.Name == nil || *got.Lead.Name != "Lena" || len(got.Maintainers) != 2 {
			t.Fatalf("lead %+v maintainers %+v", got.Lead, got.Maintainers)
		}
	}
	missing := ProjectRepositoryOf(addr, "", discovery.Many{Selection: sel, Err: &discovery.NotFound{View: v}}, true, false)
	if missing.Status != RepositoryNotFound || missing.Health.Verdict != VerdictUnknown || missing.Lead != nil {
		t.Fatalf("missing: %+v", missing)
	}
}
