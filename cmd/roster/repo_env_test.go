package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// ROSTER_REPO selects the repository as --repo does; --repo wins over it,
// and a command that reads no repository ignores it.
func TestRosterRepoEnvSelectsTheRepositoryAndRepoFlagWins(t *testing.T) {
	t.Parallel()
	type errDoc struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	env := clitest.TestEnv(t)
	env["ROSTER_REPO"] = clitest.Alice.Naddr("proj")
	r := clitest.Invocation{Env: env, Dir: t.TempDir()}.Roster(t, "repo", "--relay", "ws://127.0.0.1:1", "--json")
	var e errDoc
	// Outside a checkout nothing else selects a coordinate: without the
	// variable this is no-coordinate; with it, the relays are asked for it.
	if r.Code != cmdutil.ExitIncomplete || json.Unmarshal([]byte(r.Out), &e) != nil || e.Error.Code != "incomplete" ||
		!strings.Contains(e.Error.Message, clitest.Alice.Npub()+"/proj") {
		t.Errorf("ROSTER_REPO: exit %d %q %q", r.Code, r.Out, r.Err)
	}

	env = clitest.TestEnv(t)
	env["ROSTER_REPO"] = "garbage:/x"
	r = clitest.Invocation{Env: env, Dir: t.TempDir()}.Roster(t, "repo", "--relay", "ws://127.0.0.1:1", "--json")
	e = errDoc{}
	if r.Code != cmdutil.ExitUsage || json.Unmarshal([]byte(r.Out), &e) != nil || !strings.Contains(e.Error.Message, "garbage:/x") {
		t.Errorf("bad ROSTER_REPO: exit %d %q %q", r.Code, r.Out, r.Err)
	}
	r = clitest.Invocation{Env: env, Dir: t.TempDir()}.Roster(t, "repo", "--relay", "ws://127.0.0.1:1", "--json", "--repo", clitest.Alice.Naddr("proj"))
	e = errDoc{}
	if r.Code != cmdutil.ExitIncomplete || json.Unmarshal([]byte(r.Out), &e) != nil || e.Error.Code != "incomplete" || strings.Contains(r.Out, "garbage") {
		t.Errorf("--repo over ROSTER_REPO: exit %d %q %q", r.Code, r.Out, r.Err)
	}
	r = clitest.Invocation{Env: env}.Roster(t, "version", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Errorf("version with ROSTER_REPO set: exit %d %q %q", r.Code, r.Out, r.Err)
	}
}
