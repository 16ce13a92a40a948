package project

import (
	"strings"
	"testing"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
	"github.com/roster-cli/roster/report"
)

// Rule (a longer --timeout only for a relay that timed out): a member
// repository that could not be judged gets `project health --timeout 30s`
// only when a relay asked about it gave no answer in time; a relay that
// refused the connection or closed the request, or a member no relay
// holds, is not helped by waiting longer.
func TestProjectHealthSuggestsALongerTimeoutOnlyWhenARelayTimedOut(t *testing.T) {
	sel := gitstate.Selection{Coordinate: graph.NewCoordinate(strings.Repeat("a", 64), "widget")}
	member := func(err func(*discovery.View) error, statuses ...string) report.ProjectRepository {
		v := &discovery.View{Selection: sel, Fetch: &relaypool.FetchResult{}}
		for i, s := range statuses {
			v.Fetch.Relays = append(v.Fetch.Relays, relaypool.RelayReport{URL: "wss://r" + string(rune('0'+i)) + ".example", Status: s})
		}
		return report.ProjectRepositoryOf(sel.Coordinate.ATag(), "", discovery.Many{Selection: sel, Err: err(v)}, false, false)
	}
	incomplete := func(v *discovery.View) error { return &discovery.Incomplete{View: v} }
	notFound := func(v *discovery.View) error { return &discovery.NotFound{View: v} }
	for _, c := range []struct {
		name    string
		repos   []report.ProjectRepository
		timeout bool
	}{
		{"a relay timed out", []report.ProjectRepository{member(incomplete, relaypool.StatusOK, relaypool.StatusTimeout)}, true},
		{"a relay refused the connection", []report.ProjectRepository{member(incomplete, relaypool.StatusOK, relaypool.StatusFailed)}, false},
		{"no relay holds it", []report.ProjectRepository{member(notFound, relaypool.StatusOK)}, false},
	} {
		got := unresolvedCommands("30621:owner:demo", c.repos)
		has := false
		for _, cmd := range got {
			has = has || cmd.Has("--timeout")
		}
		if has != c.timeout || len(got) == 0 || got[0].Line() != "roster project show 30621:owner:demo" {
			t.Errorf("%s: commands %v, want --timeout %v", c.name, got, c.timeout)
		}
	}
}
