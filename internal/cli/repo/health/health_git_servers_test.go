package health_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

type gitServersDoc struct {
	Healthy  bool `json:"healthy"`
	Findings []struct {
		Code    string  `json:"code"`
		Command *string `json:"command"`
	} `json:"findings"`
	GitServers []struct {
		URL     string `json:"url"`
		Verdict string `json:"verdict"`
		Refs    []struct {
			Ref     string  `json:"ref"`
			State   *string `json:"state"`
			Server  *string `json:"server"`
			Verdict string  `json:"verdict"`
		} `json:"refs"`
		Command *string `json:"command"`
	} `json:"git_servers"`
}

// serverWorld: alice alone leads proj, advertises one bare server, and
// published a state naming main at stateMain; the checkout has c1 and its
// child c2, the server serves serverMain.
func serverWorld(t *testing.T, pickState, pickServer func(c1, c2 string) string, clone ...string) (relay string, work *clitest.GitWork) {
	t.Helper()
	work = clitest.NewGitWork(t)
	c1 := work.Commit("one")
	c2 := work.Commit("two")
	srv, url := clitest.NewBareServer(t)
	work.PushTo(srv, pickServer(c1, c2)+":refs/heads/main")
	if len(clone) == 0 {
		clone = []string{url}
	}
	relays := devrelay.StartN(t, 1, devrelay.Options{})
	clitest.Publish(t, relays[0].URL(),
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.MaintainersTag(clitest.Alice), append(nostr.Tag{"clone"}, clone...)),
		clitest.Alice.Sign(t, graph.KindState, 1001, nostr.Tag{"d", "proj"}, nostr.Tag{"HEAD", "ref: refs/heads/main"}, nostr.Tag{"refs/heads/main", pickState(c1, c2)}))
	return relays[0].URL(), work
}

func first(c1, _ string) string  { return c1 }
func second(_, c2 string) string { return c2 }

func serverHealth(t *testing.T, relay string, work *clitest.GitWork, args ...string) (clitest.Result, gitServersDoc) {
	t.Helper()
	r := clitest.Invocation{Env: clitest.TestEnv(t), Dir: work.Dir}.Roster(t, append([]string{"repo", "health", "--json", "--repo", clitest.Alice.Naddr("proj"), "--relay", relay}, args...)...)
	var d gitServersDoc
	if err := json.Unmarshal([]byte(r.Out), &d); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s%s", r.Code, err, r.Out, r.Err)
	}
	return r, d
}

// Rule (repo health compares the Git servers with the published state): a
// commit pushed to the advertised server but never published is "ahead",
// with the command that publishes it; a warning, so --strict fails.
func TestHealthGitServerPushedButUnpublishedIsAhead(t *testing.T) {
	t.Parallel()
	relay, work := serverWorld(t, first, second)
	r, d := serverHealth(t, relay, work)
	if r.Code != cmdutil.ExitOK || len(d.GitServers) != 1 {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
	s := d.GitServers[0]
	if s.Verdict != "ahead" || len(s.Refs) != 1 || s.Refs[0].Ref != "refs/heads/main" || s.Refs[0].Verdict != "ahead" ||
		s.Command == nil || !strings.HasPrefix(*s.Command, "roster repo state publish") {
		t.Fatalf("git server %+v:\n%s", s, r.Out)
	}
	if len(d.Findings) != 1 || d.Findings[0].Code != "git-server-ahead" {
		t.Fatalf("findings %+v", d.Findings)
	}
	// A finding's command is bare, as every finding's is; the server's
	// carries the read's repository and relays, never the runner's home.
	if c := d.Findings[0].Command; c == nil || *c != "roster repo state publish" {
		t.Fatalf("finding command %v, want the bare roster repo state publish", c)
	}
	if r, d := serverHealth(t, relay, work, "--home", t.TempDir()); r.Code != cmdutil.ExitOK || len(d.GitServers) != 1 ||
		d.GitServers[0].Command == nil || strings.Contains(*d.GitServers[0].Command, "--home") {
		t.Fatalf("with --home: exit %d, servers %+v\n%s%s", r.Code, d.GitServers, r.Out, r.Err)
	}
	if r, _ := serverHealth(t, relay, work, "--strict"); r.Code != cmdutil.ExitUnhealthy {
		t.Fatalf("--strict exit %d, want 5:\n%s", r.Code, r.Out)
	}
	if r, d := serverHealth(t, relay, work, "--strict", "--no-git-servers"); r.Code != cmdutil.ExitOK || len(d.GitServers) != 0 {
		t.Fatalf("--no-git-servers exit %d:\n%s", r.Code, r.Out)
	}
}

// Rule (repo health compares the Git servers with the published state): a
// server whose ref was rewound behind the state is "behind-or-rewound",
// with the push that restores it.
func TestHealthGitServerRewoundIsBehind(t *testing.T) {
	t.Parallel()
	relay, work := serverWorld(t, second, first)
	r, d := serverHealth(t, relay, work)
	if len(d.GitServers) != 1 {
		t.Fatalf("exit %d:\n%s", r.Code, r.Out)
	}
	s := d.GitServers[0]
	c2 := work.Rev("main")
	if s.Verdict != "behind-or-rewound" || len(s.Refs) != 1 || s.Refs[0].Verdict != "behind" ||
		s.Command == nil || !strings.Contains(*s.Command, c2+":refs/heads/main") {
		t.Fatalf("git server %+v:\n%s", s, r.Out)
	}
	if len(d.Findings) != 1 || d.Findings[0].Code != "git-server-behind-or-rewound" {
		t.Fatalf("findings %+v", d.Findings)
	}
}

// Rule (repo health compares the Git servers with the published state): a
// matching server is "matches" and no finding; an advertised server that
// cannot be listed is "unreachable": incomplete evidence, exit 4 only with
// --strict.
func TestHealthGitServerMatchesAndUnreachable(t *testing.T) {
	t.Parallel()
	_, url := clitest.NewBareServer(t)
	gone := url + "-missing"
	relay, work := serverWorld(t, second, second, url, gone)
	// serverWorld pushed to its own server; push the same to url.
	work.Git("push", "-q", strings.TrimPrefix(url, "file://"), "main:refs/heads/main")
	r, d := serverHealth(t, relay, work)
	if r.Code != cmdutil.ExitOK || len(d.GitServers) != 2 || d.GitServers[0].Verdict != "matches" || d.GitServers[1].Verdict != "unreachable" || len(d.Findings) != 0 {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
	r = clitest.Invocation{Env: clitest.TestEnv(t), Dir: work.Dir}.Roster(t, "repo", "health", "--strict", "--repo", clitest.Alice.Naddr("proj"), "--relay", relay)
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Err, gone) {
		t.Fatalf("--strict exit %d, want 4 naming %s:\n%s%s", r.Code, gone, r.Out, r.Err)
	}
}

// Rule (repo state compares the Git servers with the state too): the same
// git_servers comparison in roster.state/v1, and as workflow commands with
// --format github (well-formed, exit 0 as without it).
func TestRepoStateShowsTheGitServersAndFormatGitHub(t *testing.T) {
	t.Parallel()
	relay, work := serverWorld(t, second, first)
	inv := clitest.Invocation{Env: clitest.TestEnv(t), Dir: work.Dir}
	base := []string{"repo", "state", "--repo", clitest.Alice.Naddr("proj"), "--relay", relay}
	r := inv.Roster(t, append(base, "--json")...)
	var d gitServersDoc
	if err := json.Unmarshal([]byte(r.Out), &d); err != nil || r.Code != cmdutil.ExitOK || len(d.GitServers) != 1 || d.GitServers[0].Verdict != "behind-or-rewound" {
		t.Fatalf("exit %d %v:\n%s%s", r.Code, err, r.Out, r.Err)
	}
	r = inv.Roster(t, append(base, "--format", "github")...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("--format github exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
	found := false
	for _, c := range clitest.ParseWorkflowCommands(t, r.Out) {
		if c.Command == "warning" && c.Props["title"] == "roster: git server behind-or-rewound" && strings.Contains(c.Message, "refs/heads/main behind") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no behind-or-rewound warning:\n%s", r.Out)
	}
	r = inv.Roster(t, append(base, "--no-git-servers")...)
	if r.Code != cmdutil.ExitOK || strings.Contains(r.Out, "git servers compared") {
		t.Fatalf("--no-git-servers exit %d:\n%s", r.Code, r.Out)
	}
}
