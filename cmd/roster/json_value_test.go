package main

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/commands"
	cliroot "github.com/roster-cli/roster/internal/cli/root"
)

// `--json a,b` selects the named top-level fields as --json-fields does,
// on a real read over a relay; bare --json is still the whole object.
func TestJSONWithFieldNamesSelectsThoseFields(t *testing.T) {
	t.Parallel()
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, relay.URL(), clitest.LeadShaped(t, "proj")...)
	base := []string{"--repo", clitest.Alice.Naddr("proj"), "--relay", relay.URL(), "--timeout", "5s"}
	for _, sel := range [][]string{{"--json", "lead_maintainer,maintainers"}, {"--json=lead_maintainer,maintainers"}} {
		r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, append(append([]string{"repo"}, sel...), base...)...)
		var got map[string]json.RawMessage
		var lead string
		if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &got) != nil || len(got) != 2 ||
			json.Unmarshal(got["lead_maintainer"], &lead) != nil || lead != clitest.Alice.Npub() || got["maintainers"] == nil {
			t.Errorf("%v: exit %d %q %q", sel, r.Code, r.Out, r.Err)
		}
	}
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}.Roster(t, append([]string{"repo", "--json"}, base...)...)
	var whole struct {
		Schema   string `json:"schema"`
		Complete bool   `json:"complete"`
	}
	if r.Code != cmdutil.ExitOK || json.Unmarshal([]byte(r.Out), &whole) != nil || whole.Schema != "roster.repo/v2" || !whole.Complete {
		t.Errorf("bare --json: exit %d %q %q", r.Code, r.Out, r.Err)
	}
}

// The next argument after --json is taken as field names only when each
// is a top-level field of the command's object and none a subcommand:
// an event reference, a subcommand, a flag or an unknown name keeps its
// meaning; --json=true stays the bool.
func TestJSONTakesTheNextArgumentOnlyWhenItNamesFields(t *testing.T) {
	t.Parallel()
	root := cliroot.NewRootCmdFor(&cmdutil.Factory{Io: &cmdutil.IoStreams{}}, commands.All, []string{"repo"})
	for _, c := range []struct{ in, want []string }{
		{[]string{"repo", "--json", "lead_maintainer,complete"}, []string{"repo", "--json-fields", "lead_maintainer,complete"}},
		{[]string{"repo", "--json=complete"}, []string{"repo", "--json-fields=complete"}},
		{[]string{"repo", "--json=true"}, []string{"repo", "--json=true"}},
		{[]string{"repo", "--json", "health"}, []string{"repo", "--json", "health"}},
		{[]string{"repo", "--json", "complete,nosuch"}, []string{"repo", "--json", "complete,nosuch"}},
		{[]string{"repo", "--json", "--offline"}, []string{"repo", "--json", "--offline"}},
		{[]string{"repo", "check-event", "--json", "nevent1qqs"}, []string{"repo", "check-event", "--json", "nevent1qqs"}},
		{[]string{"repo", "--repo", "complete", "--json"}, []string{"repo", "--repo", "complete", "--json"}},
		{[]string{"repo", "health", "--json", "healthy,errors"}, []string{"repo", "health", "--json-fields", "healthy,errors"}},
		{[]string{"repo", "--", "--json", "complete"}, []string{"repo", "--", "--json", "complete"}},
	} {
		if got := commands.All.JsonValueArgs(root, c.in); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}
