package repo_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// graphWorld is a repository with every kind of edge: Alice leads and
// lists Bob (confirmed), Carol (invited) and Dave (moderator); she ended
// Erin's listing; Bob's copy of Erin's interval ends at another time (a
// conflicting copy); Dave keeps Bob's interval as a defer copy; Erin ended
// her own role. Alice, Bob and Erin have profiles.
func graphWorld(t *testing.T) *devrelay.Relay {
	t.Helper()
	rl := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, rl.URL(),
		clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Carol, "300"), clitest.Role("o", clitest.Dave, "400"),
			clitest.Role("m", clitest.Erin, "100", "150"), clitest.MaintainersTag(clitest.Alice, clitest.Bob, clitest.Carol)),
		clitest.Bob.Announce(t, "proj", 1001, clitest.Role("M", clitest.Alice, "200"), clitest.Role("m", clitest.Bob, "200"), clitest.Role("m", clitest.Erin, "100", "120"), clitest.MaintainersTag(clitest.Alice, clitest.Bob)),
		clitest.Dave.Announce(t, "proj", 1002, clitest.Role("o", clitest.Dave, "400"), clitest.Role("m", clitest.Bob, "200", "defer"), clitest.MaintainersTag()),
		clitest.Erin.Announce(t, "proj", 1003, clitest.Role("M", clitest.Alice, "100"), clitest.Role("m", clitest.Erin, "100", "150"), clitest.MaintainersTag(clitest.Alice)),
		clitest.Alice.Profile(t, 50, map[string]any{"name": "alice"}),
		clitest.Bob.Profile(t, 50, map[string]any{"name": "bob"}),
		clitest.Erin.Profile(t, 50, map[string]any{"name": "erin"}),
	)
	return rl
}

func runGraph(t *testing.T, rl *devrelay.Relay, inv clitest.Invocation, args ...string) string {
	t.Helper()
	r := inv.Roster(t, append([]string{"repo", "graph", "--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL(), "--timeout", "3s"}, args...)...)
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s%s", r.Code, r.Out, r.Err)
	}
	return r.Out
}

// Rule (a picture of the graph): the tree starts at the selected
// maintainer, shows the lead path and every active listing, and with
// --history the defer copies and ended records; golden at 80 and 120
// columns on a terminal, and in full npubs in a pipe.
func TestRepoGraphTreeGolden(t *testing.T) {
	t.Parallel()
	rl := graphWorld(t)
	for _, c := range []struct {
		name string
		tty  bool
		cols string
		args []string
	}{
		{"tree_80", true, "80", nil},
		{"tree_120_history", true, "120", []string{"--history"}},
		{"tree_pipe", false, "", nil},
	} {
		env := clitest.WithKey(clitest.TestEnv(t), clitest.Bob)
		env["NO_COLOR"] = "1"
		env["COLUMNS"] = c.cols
		out := runGraph(t, rl, clitest.Invocation{Env: env, OutTTY: c.tty}, c.args...)
		for _, l := range strings.Split(out, "\n") {
			if c.cols != "" && len([]rune(l)) > atoi(t, c.cols) {
				t.Fatalf("%s: line wider than %s columns: %q", c.name, c.cols, l)
			}
		}
		checkGolden(t, filepath.Join("testdata", "repo_graph_"+c.name+".golden"), out)
	}
	hist := runGraph(t, rl, clitest.Invocation{Env: clitest.TestEnv(t)}, "--history")
	for _, s := range []string{"[history copy: defer]", "until 1970-01-01 00:02:30 UTC [ended]", "until 1970-01-01 00:02:00 UTC [ended]", "<- lead path", "invited maintainer (not yet accepted)"} {
		if !strings.Contains(hist, s) {
			t.Fatalf("--history tree lacks %q:\n%s", s, hist)
		}
	}
	plain := runGraph(t, rl, clitest.Invocation{Env: clitest.TestEnv(t)})
	if strings.Contains(plain, "defer") || strings.Contains(plain, "[ended]") {
		t.Fatalf("without --history the tree shows history:\n%s", plain)
	}
}

// dotStatement is one DOT node or edge statement as renderGraphDOT writes
// them: "id" [attrs]; or "id" -> "id" [attrs];
var dotStatement = regexp.MustCompile(`^  ("(?:[^"\\]|\\.)*")(?: -> ("(?:[^"\\]|\\.)*"))? \[((?:[a-z]+=(?:"(?:[^"\\]|\\.)*"|[a-z0-9]+)(?:, )?)+)\];$`)

// Rule (diagrams): --format dot is Graphviz source whose every statement
// parses (quoted ids, attribute lists, edges between declared nodes) and
// --format mermaid a flowchart with the same nodes and edges; both golden.
func TestRepoGraphDOTAndMermaid(t *testing.T) {
	t.Parallel()
	rl := graphWorld(t)
	dot := runGraph(t, rl, clitest.Invocation{Env: clitest.TestEnv(t)}, "--format", "dot", "--history")
	checkGolden(t, filepath.Join("testdata", "repo_graph_history.dot"), dot)
	lines := strings.Split(strings.TrimSuffix(dot, "\n"), "\n")
	if lines[0] != `digraph "proj" {` || lines[len(lines)-1] != "}" || lines[1] != "  rankdir=LR;" || lines[2] != "  node [shape=box];" {
		t.Fatalf("not a digraph:\n%s", dot)
	}
	nodes, edges := map[string]bool{}, 0
	for _, l := range lines[3 : len(lines)-1] {
		m := dotStatement.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("statement does not parse: %q", l)
		}
		if m[2] == "" {
			nodes[m[1]] = true
			continue
		}
		edges++
		if !nodes[m[1]] || !nodes[m[2]] {
			t.Fatalf("edge between undeclared nodes: %q", l)
		}
	}
	var g struct {
		Nodes []json.RawMessage `json:"nodes"`
		Edges []struct {
			Kind string `json:"kind"`
		} `json:"edges"`
	}
	js := runGraph(t, rl, clitest.Invocation{Env: clitest.TestEnv(t)}, "--json", "--history")
	if err := json.Unmarshal([]byte(js), &g); err != nil || len(g.Nodes) != len(nodes) || len(g.Edges) != edges {
		t.Fatalf("DOT has %d nodes, %d edges; JSON (%v): %d, %d", len(nodes), edges, err, len(g.Nodes), len(g.Edges))
	}
	kinds := map[string]int{}
	for _, e := range g.Edges {
		kinds[e.Kind]++
	}
	if kinds["defer"] != 1 || kinds["ended"] != 3 {
		t.Fatalf("edge kinds %v, want 1 defer and 3 ended", kinds)
	}
	mer := runGraph(t, rl, clitest.Invocation{Env: clitest.TestEnv(t)}, "--format", "mermaid", "--history")
	checkGolden(t, filepath.Join("testdata", "repo_graph_history.mmd"), mer)
	if !strings.HasPrefix(mer, "flowchart LR\n") || strings.Count(mer, "|") != 2*edges {
		t.Fatalf("mermaid:\n%s", mer)
	}
}

// Rule (relay text never drives the terminal, nor a diagram): a profile
// name with quotes and control characters stays inside its DOT label.
func TestRepoGraphEscapesNamesInDiagrams(t *testing.T) {
	t.Parallel()
	rl := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clitest.Publish(t, rl.URL(), clitest.Alice.Announce(t, "proj", 1000, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "200")),
		clitest.Alice.Profile(t, 50, map[string]any{"name": "a\"]; evil -> x [\n\x1b[31m"}))
	dot := runGraph(t, rl, clitest.Invocation{Env: clitest.TestEnv(t)}, "--format", "dot")
	for _, l := range strings.Split(strings.TrimSuffix(dot, "\n"), "\n")[3:] {
		if l != "}" && dotStatement.FindStringSubmatch(l) == nil {
			t.Fatalf("a name broke out of its label: %q\n%s", l, dot)
		}
	}
	if strings.ContainsAny(dot, "\x1b") {
		t.Fatalf("escape character in the DOT output:\n%q", dot)
	}
}

// Rule (history precedence; replicated role history): every person's
// effective intervals per role, the record each comes from (the selected
// maintainer's where it has one), a signed end, and a copy that disagrees
// listed as a conflict; former maintainers included.
func TestRepoHistoryListsFormerMaintainersAndConflictingCopies(t *testing.T) {
	t.Parallel()
	rl := graphWorld(t)
	r := clitest.Invocation{Env: clitest.TestEnv(t)}.Roster(t, "repo", "history", "--json", "--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL(), "--timeout", "3s")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s%s", r.Code, r.Out, r.Err)
	}
	var h struct {
		Schema string `json:"schema"`
		People []struct {
			Npub    string  `json:"npub"`
			Name    *string `json:"name"`
			Current string  `json:"current"`
			Roles   []struct {
				Role      string `json:"role"`
				Source    string `json:"source"`
				Conflict  bool   `json:"conflict"`
				Intervals []struct {
					From  *int64 `json:"from"`
					Until *int64 `json:"until"`
					End   string `json:"end"`
				} `json:"intervals"`
				Copies []struct {
					Author string `json:"author"`
					Chosen bool   `json:"chosen"`
				} `json:"copies"`
			} `json:"roles"`
		} `json:"people"`
	}
	if err := json.Unmarshal([]byte(r.Out), &h); err != nil || h.Schema != "roster.repo-history/v1" {
		t.Fatalf("%v:\n%s", err, r.Out)
	}
	var found bool
	for _, p := range h.People {
		if p.Npub != clitest.Erin.Npub() {
			continue
		}
		found = true
		if p.Current != "former" || p.Name == nil || *p.Name != "erin" || len(p.Roles) != 1 {
			t.Fatalf("erin: %+v", p)
		}
		role := p.Roles[0]
		iv := role.Intervals
		if role.Role != "maintainer" || role.Source != clitest.Alice.Npub() || len(iv) != 1 || iv[0].End != "signed" ||
			iv[0].From == nil || *iv[0].From != 100 || iv[0].Until == nil || *iv[0].Until != 150 {
			t.Fatalf("erin's maintainer history: %+v", role)
		}
		if !role.Conflict || len(role.Copies) < 2 {
			t.Fatalf("bob's copy ending at 120 should be a conflicting copy: %+v", role)
		}
	}
	if !found {
		t.Fatalf("the former maintainer is missing:\n%s", r.Out)
	}
	env := clitest.TestEnv(t)
	env["NO_COLOR"] = "1"
	env["COLUMNS"] = "100"
	human := clitest.Invocation{Env: env, OutTTY: true}.Roster(t, "repo", "history", "--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL(), "--timeout", "3s")
	checkGolden(t, filepath.Join("testdata", "repo_history_100.golden"), human.Out)
}
